import { loadCorpus } from '@mcp-atlas/corpus';
import { describe, expect, it } from 'vitest';
import { classifyTools, toolVerb } from '../src/index.js';

// Invariants over every real tool list in ../shared/corpus (read in place, never copied).
const servers = loadCorpus();

describe('the seed invariants hold on every real tool list', () => {
  it.each(servers.map((server) => [server.id, server] as const))('%s', (_id, server) => {
    const verdicts = classifyTools(server.raw);
    expect(verdicts).toHaveLength(server.raw.length);
    server.tools.forEach((tool, i) => {
      const verdict = verdicts[i];
      const annotations = tool.annotations as { readOnlyHint?: unknown; destructiveHint?: unknown } | undefined;
      if (annotations?.destructiveHint === true && annotations.readOnlyHint !== true) {
        expect(verdict?.level, tool.name).toBe('high-risk');
      }
      if (annotations?.readOnlyHint === true && verdict?.rule !== 2) {
        expect(verdict?.level, tool.name).toBe('read-only');
      }
    });
  });
});

describe('the verb lists cover real tool names', () => {
  it('find a verb in at least 90% of the names of one-server lists', () => {
    const names = servers.filter((s) => s.source === 'list').flatMap((s) => s.tools.map((t) => t.name));
    const withVerb = names.filter((name) => toolVerb(name) !== null).length;
    const share = withVerb / names.length;
    console.log(`verb found in ${withVerb} of ${names.length} one-server tool names (${(share * 100).toFixed(1)}%)`);
    expect(share).toBeGreaterThanOrEqual(0.9);
  });

  // The pool is scraped from READMEs, so its names are rougher; 85% is the floor measured with margin.
  it('find a verb in at least 85% of the names in the README-derived pool', () => {
    const names = servers.filter((s) => s.source === 'pool').flatMap((s) => s.tools.map((t) => t.name));
    const withVerb = names.filter((name) => toolVerb(name) !== null).length;
    const share = withVerb / names.length;
    console.log(`verb found in ${withVerb} of ${names.length} pool tool names (${(share * 100).toFixed(1)}%)`);
    expect(share).toBeGreaterThanOrEqual(0.85);
  });

  it('agree with the servers’ own destructive and read-only hints for most annotated tools', () => {
    let agree = 0;
    let total = 0;
    for (const server of servers) {
      const verdicts = classifyTools(server.raw);
      server.tools.forEach((tool, i) => {
        const a = tool.annotations as { readOnlyHint?: unknown; destructiveHint?: unknown } | undefined;
        if (a?.readOnlyHint !== true && a?.destructiveHint !== true) return;
        total++;
        const expected = a.destructiveHint === true && a.readOnlyHint !== true ? 'high-risk' : 'read-only';
        if (verdicts[i]?.level === expected) agree++;
      });
    }
    console.log(`hint agreement: ${agree} of ${total}`);
    expect(total).toBeGreaterThan(100);
    expect(agree / total).toBeGreaterThanOrEqual(0.95);
  });
});
