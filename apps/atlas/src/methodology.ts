// The methodology version the service records with every day's files and publishes; it names the version
// of docs/methodology/ (stated on its contents page, README.md; a test keeps the two equal). It is a label, not a
// rule: rules live in packages.
import appPackage from '../package.json' with { type: 'json' };

export const METHODOLOGY_VERSION = '1.8.0';

/**
 * The app's own version, shown in the well-known file, the OpenAPI document and the MCP handshake. It comes
 * from the app's package.json (the build inlines it), so a release bump needs no code change.
 */
export const APP_VERSION: string = appPackage.version;
