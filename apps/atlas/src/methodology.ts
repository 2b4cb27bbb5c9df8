// The methodology version the service records with every day's files and publishes; it names the version
// of docs/methodology.md (a test keeps the two equal). It is a label, not a rule: rules live in packages.
import { createRequire } from 'node:module';

export const METHODOLOGY_VERSION = '1.2.0';

/**
 * The app's own version, shown in the well-known file, the OpenAPI document and the MCP handshake. It is read
 * from the app's package.json (src/ and dist/ both sit one folder below it), so a release bump needs no code change.
 */
export const APP_VERSION: string = (createRequire(import.meta.url)('../package.json') as { version: string }).version;
