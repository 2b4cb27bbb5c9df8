#!/usr/bin/env node
// The small client the conformance suite runs beside `mcp-atlas check`: it drives the probe library directly
// (probeServer, as the daily check calls it) against the URL the suite appends, prints the result as JSON, and
// exits 0 whatever the letter: the suite judges what the client sent, not what it printed.
// Usage: node scripts/conformance-probe.mjs <url>   (from apps/atlas, after the packages are built)
import { probeServer } from '@mcp-atlas/probe';
import { nodeNetwork } from '@mcp-atlas/probe/node';

const url = process.argv.at(-1);
const result = await probeServer(url, { ...nodeNetwork, allowPrivate: true });
const { letter, reason, message, steps, authDiscovery } = result;
process.stdout.write(`${JSON.stringify({ letter, reason, message, steps, authDiscovery }, null, 2)}\n`);
