// Our own check results in the words of the incident and agreement rules. The translation is a rule and
// lives in @mcp-atlas/reliability (own-check-outcome.ts); these names stay here for the app's callers.
export { ownCheckOutcomeOf } from '@mcp-atlas/reliability';
