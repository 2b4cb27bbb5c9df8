// The few lines anyone can run to check a day's signed root against this host's published key, with
// nothing but Node's own crypto. The state page prints them filled in with the host and the newest sealed
// day; a browser test runs exactly the printed text and expects `verified`.

/** The verification script for `day` on the host at `base` (an origin such as http://127.0.0.1:8787). */
export function verificationSnippet(base: string, day: string): string {
  return [
    '// verify.mjs: run with `node verify.mjs` (Node 18 or newer; node:crypto only)',
    "import { createHash, createPublicKey, verify } from 'node:crypto';",
    `const BASE = ${JSON.stringify(base)};`,
    `const day = ${JSON.stringify(day)};`,
    // biome-ignore-start lint/suspicious/noTemplateCurlyInString: the printed script's own template literals, filled in when the reader runs it
    'const { integrity } = await (await fetch(`${BASE}/.well-known/mcp-atlas.json`)).json();',
    'const record = await (await fetch(`${BASE}/api/maps?a=root&day=${day}`)).json();',
    "const recomputed = createHash('sha256').update(`${record.previous_root ?? ''}\\n${record.files.join('\\n')}`).digest('hex');",
    // biome-ignore-end lint/suspicious/noTemplateCurlyInString: end of the printed template literals
    "const signed = verify(null, Buffer.from(record.root, 'hex'), createPublicKey(integrity.public_key_pem), Buffer.from(record.signature, 'base64'));",
    "console.log(recomputed === record.root && signed ? 'verified' : 'mismatch');",
  ].join('\n');
}
