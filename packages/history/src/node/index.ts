/**
 * @mcp-atlas/history/node: the Node-only helpers. Reads day folders and records from disk, loads
 * a public key from a file or a well-known URL, and offers node:crypto's SHA-256 as a hash hook.
 * The root entry (`@mcp-atlas/history`) stays pure and imports none of this.
 */
export { type FolderVerdict, listDayPaths, readDayFiles, type VerifyFolderOptions, verifyFolder } from './folder.js';
export { type LoadKeyOptions, loadPublicKey } from './key.js';
export { nodeSha256 } from './sha256.js';
