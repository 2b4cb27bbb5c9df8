// Loaded with `node --import` before the MCP conformance suite (v0.1.16) on Node 20. The suite imports
// `globSync` from `fs`, which Node adds only in 22; its server scenarios never call it (only the tier report
// does), but the import alone stops the module from loading. On Node 22 and later this does nothing.
import fs from 'node:fs';
import { register } from 'node:module';

if (typeof fs.globSync !== 'function') register('./hooks.mjs', import.meta.url);
