/**
 * The `mcp-history` command, as a function that tests can call: arguments and output streams in,
 * exit code out. Node-only.
 */
import { stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { parseArgs } from 'node:util';
import { EXIT_BROKEN, EXIT_USAGE, EXIT_VERIFIED } from '../constants.js';
import { isSha256Hex } from '../encoding.js';
import { describeValue, HistoryError } from '../errors.js';
import { verifyFolder } from '../node/folder.js';
import { type LoadKeyOptions, loadPublicKey } from '../node/key.js';
import { nodeSha256 } from '../node/sha256.js';

/** Where the command writes, and how it reaches the network. */
export interface CliIo {
  stdout: (line: string) => void;
  stderr: (line: string) => void;
  fetch?: LoadKeyOptions['fetch'];
}

/** The help text, printed for --help and after a usage error. */
export const USAGE = `usage: mcp-history <folder> --key <public key PEM file | well-known URL> [--days <days folder>] [--anchor <root>]

Verifies a folder of signed day roots (YYYY-MM-DD.json) as one chain, and the files of every day
whose folder is present. <folder> is either the roots folder or a data folder holding roots/ and days/.
Prints "verified" and exits 0, or prints the first broken day with the reason and exits 1.
Exits 2 when it cannot run (bad arguments, unreadable folder or key).`;

async function isDirectory(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isDirectory();
  } catch {
    return false;
  }
}

async function resolveFolders(
  folder: string,
  daysFlag: string | undefined,
): Promise<{ roots: string; days: string | null }> {
  const nestedRoots = join(folder, 'roots');
  const roots = (await isDirectory(nestedRoots)) ? nestedRoots : folder;
  if (daysFlag !== undefined) return { roots, days: daysFlag };
  const guess =
    roots === nestedRoots ? join(folder, 'days') : basename(folder) === 'roots' ? join(dirname(folder), 'days') : null;
  return { roots, days: guess !== null && (await isDirectory(guess)) ? guess : null };
}

type Parsed = { folder: string; key: string; days?: string; anchor?: string } | { help: true } | { error: string };

function parse(argv: readonly string[]): Parsed {
  let values: { key?: string; days?: string; anchor?: string; help?: boolean };
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({
      args: [...argv],
      allowPositionals: true,
      options: {
        key: { type: 'string' },
        days: { type: 'string' },
        anchor: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    }));
  } catch (error) {
    return { error: (error as Error).message };
  }
  if (values.help === true) return { help: true };
  if (positionals.length !== 1) return { error: `expected one folder, got ${positionals.length}` };
  if (values.key === undefined) return { error: 'missing --key <public key PEM file | well-known URL>' };
  if (values.anchor !== undefined && !isSha256Hex(values.anchor)) {
    return { error: `--anchor must be a root: 64 lowercase hex characters, got ${describeValue(values.anchor)}` };
  }
  const folder = positionals[0] ?? '';
  return {
    folder,
    key: values.key,
    ...(values.days === undefined ? {} : { days: values.days }),
    ...(values.anchor === undefined ? {} : { anchor: values.anchor }),
  };
}

/**
 * Runs `mcp-history` with `argv` (without the node and script names) and returns the exit code.
 *
 * @example
 * const code = await runCli(['data', '--key', 'key.pem'], { stdout: console.log, stderr: console.error });
 */
export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  const parsed = parse(argv);
  if ('help' in parsed) {
    io.stdout(USAGE);
    return EXIT_VERIFIED;
  }
  if ('error' in parsed) {
    io.stderr(`mcp-history: ${parsed.error}`);
    io.stderr(USAGE);
    return EXIT_USAGE;
  }
  try {
    const publicKey = await loadPublicKey(parsed.key, io.fetch === undefined ? {} : { fetch: io.fetch });
    const { roots, days } = await resolveFolders(parsed.folder, parsed.days);
    const verdict = await verifyFolder({
      roots,
      days,
      publicKey,
      sha256: nodeSha256,
      ...(parsed.anchor === undefined ? {} : { anchorRoot: parsed.anchor }),
    });
    if (!verdict.ok) {
      io.stdout(`broken ${verdict.day}: ${verdict.reason}`);
      return EXIT_BROKEN;
    }
    io.stdout('verified');
    io.stderr(
      `${verdict.days} days in the chain; ${verdict.dayFolders} day folders with ${verdict.files} files checked`,
    );
    return EXIT_VERIFIED;
  } catch (error) {
    if (!(error instanceof HistoryError)) throw error;
    io.stderr(`mcp-history: ${error.message}`);
    return EXIT_USAGE;
  }
}
