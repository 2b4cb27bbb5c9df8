// The methodology version the service records with every day's files and publishes; it names the version
// of docs/methodology.md (a test keeps the two equal). It is a label, not a rule: rules live in packages.
export const METHODOLOGY_VERSION = '1.2.0';

/** The app's own version, shown in the well-known file, the OpenAPI document and the MCP handshake. */
export const APP_VERSION = '0.1.0';
