// The methodology version the service records with every day's files and publishes; it names the version
// of docs/methodology.md (a test keeps the two equal). It is a label, not a rule: rules live in packages.
export const METHODOLOGY_VERSION = '1.0.0';
