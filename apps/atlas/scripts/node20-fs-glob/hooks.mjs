// Module hooks for register.mjs: inside the conformance package only, `fs` resolves to Node's own fs plus a
// `globSync` that says plainly it is missing, so a call (never made by the server scenarios) fails loudly.
const SHIM_URL = 'mcp-atlas-node20:fs';
const SHIM_SOURCE = [
  "export * from 'node:fs';",
  "import fs from 'node:fs';",
  'export default fs;',
  "export function globSync() { throw new Error('fs.globSync needs Node 22 or newer'); }",
].join('\n');

/** Sends the conformance package's `fs` imports to the shim; everything else resolves as usual. */
export async function resolve(specifier, context, nextResolve) {
  const fromSuite = context.parentURL?.includes('/@modelcontextprotocol/conformance/') === true;
  if (fromSuite && (specifier === 'fs' || specifier === 'node:fs')) return { url: SHIM_URL, shortCircuit: true };
  return nextResolve(specifier, context);
}

/** Serves the shim's source. */
export async function load(url, context, nextLoad) {
  if (url === SHIM_URL) return { format: 'module', source: SHIM_SOURCE, shortCircuit: true };
  return nextLoad(url, context);
}
