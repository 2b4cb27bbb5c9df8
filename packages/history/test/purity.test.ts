// The root entry is pure: nothing it reaches imports Node built-ins, reads the clock or draws
// Math.random, and index.ts only re-exports.
import { readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import * as history from '../src/index.js';
import * as nodeEntry from '../src/node/index.js';
import * as rules from '../src/rules.js';

const SRC = join(dirname(fileURLToPath(import.meta.url)), '..', 'src');
const IMPORT = /(?:import|export)\s[^'";]*?from\s+['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;

function withoutComments(source: string): string {
  return source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:])\/\/.*$/gm, '$1');
}

function reachable(entry: string): Map<string, string[]> {
  const seen = new Map<string, string[]>();
  const visit = (file: string): void => {
    if (seen.has(file)) return;
    const specifiers = [...withoutComments(readFileSync(file, 'utf8')).matchAll(IMPORT)].map((m) => m[1] ?? m[2] ?? '');
    seen.set(file, specifiers);
    for (const specifier of specifiers) {
      if (specifier.startsWith('.')) visit(join(dirname(file), specifier.replace(/\.js$/, '.ts')));
    }
  };
  visit(entry);
  return seen;
}

const pureFiles = reachable(join(SRC, 'index.ts'));

describe('the root entry', () => {
  it('reaches only pure modules, none under src/node or src/cli', () => {
    const names = [...pureFiles.keys()].map((file) => relative(SRC, file)).sort();
    expect(names).toEqual([
      'chain-ends.ts',
      'constants.ts',
      'day-label.ts',
      'day.ts',
      'ed25519.ts',
      'encoding.ts',
      'errors.ts',
      'hash.ts',
      'index.ts',
      'keys.ts',
      'lines.ts',
      'paths.ts',
      'root.ts',
      'seal.ts',
      'verify.ts',
    ]);
  });

  it('imports nothing but its own modules, @noble and the shared day helpers of @mcp-atlas/base', () => {
    const external = [...pureFiles.values()].flat().filter((specifier) => !specifier.startsWith('.'));
    expect(new Set(external)).toEqual(
      new Set(['@noble/hashes/utils.js', '@noble/hashes/sha2.js', '@noble/ed25519', '@mcp-atlas/base']),
    );
  });

  it('never reads the clock, draws Math.random or touches process', () => {
    for (const file of pureFiles.keys()) {
      const code = withoutComments(readFileSync(file, 'utf8'));
      expect(code, relative(SRC, file)).not.toMatch(
        /Date\.now|new Date\(|Math\.random|performance\.now|process\.|setTimeout|globalThis/,
      );
    }
  });

  it('index.ts only re-exports', () => {
    const code = withoutComments(readFileSync(join(SRC, 'index.ts'), 'utf8')).trim();
    const statements = code.split(/;\s*/).filter((statement) => statement.trim() !== '');
    for (const statement of statements)
      expect(statement.trim()).toMatch(/^export (type )?\{[\s\S]*\} from '\.\/[a-z0-9-]+\.js'$/);
  });

  it('exports the contract names', () => {
    for (const name of [
      'fileLine',
      'computeRoot',
      'sealDay',
      'verifyDayRoot',
      'verifyChain',
      'verifyFiles',
      'previousRootFor',
      'daysToSign',
      'checkDayLabel',
      'readSealedDay',
      'publicKeyPem',
      'generateKeyPair',
    ]) {
      expect(typeof (history as Record<string, unknown>)[name], name).toBe('function');
    }
  });

  it('keeps the Node helpers out of the root entry', () => {
    for (const name of Object.keys(nodeEntry)) expect(name in history, name).toBe(false);
  });
});

describe('the public names', () => {
  it('the root entry exports functions and the error class, no rule constant', () => {
    expect(Object.keys(history).sort()).toEqual([
      'HistoryError',
      'assertDayPath',
      'checkChainEnds',
      'checkDayLabel',
      'checkDayRoot',
      'compareDayPaths',
      'computeRoot',
      'dayFromTime',
      'dayLines',
      'daysToSign',
      'fileLine',
      'generateKeyPair',
      'parseDayRoot',
      'parseFileLine',
      'previousRootFor',
      'privateKeyFromPem',
      'privateKeyPem',
      'publicKeyFor',
      'publicKeyFromPem',
      'publicKeyPem',
      'readSealedDay',
      'sealDay',
      'sealDaySync',
      'verifyChain',
      'verifyChainSync',
      'verifyDayRoot',
      'verifyFileHashes',
      'verifyFiles',
    ]);
  });

  it('the rules entry exports one frozen object per concern, holding the methodology numbers', () => {
    expect(Object.keys(rules).sort()).toEqual(['DAY_RULES', 'LINE_RULES', 'SEAL_RULES', 'SIGNATURE_RULES']);
    for (const group of Object.values(rules)) expect(Object.isFrozen(group)).toBe(true);
    expect(rules.SEAL_RULES).toEqual({
      previousRootWindowDays: 14,
      catchUpDays: 7,
      sealTimeUtc: { hour: 1, minute: 5 },
    });
    expect(Object.isFrozen(rules.SEAL_RULES.sealTimeUtc)).toBe(true);
    expect(rules.LINE_RULES).toEqual({
      hashPathSeparator: '  ',
      rootPreimageSeparator: '\n',
      noPreviousRoot: '',
      hashHexLength: 64,
      dayIndexPath: 'index.json',
      dayIndexField: 'day',
    });
    expect(rules.DAY_RULES).toEqual({ minYear: 0, maxYear: 9999 });
    expect(rules.SIGNATURE_RULES).toEqual({
      publicKeyBytes: 32,
      privateKeyBytes: 32,
      signatureBytes: 64,
      verifyWithZip215: false,
      wellKnownPath: '/.well-known/mcp-atlas.json',
    });
  });

  it('the rules entry reaches only constants.ts, so reading a rule loads no crypto', () => {
    const names = [...reachable(join(SRC, 'rules.ts')).keys()].map((file) => relative(SRC, file)).sort();
    expect(names).toEqual(['constants.ts', 'rules.ts']);
  });
});
