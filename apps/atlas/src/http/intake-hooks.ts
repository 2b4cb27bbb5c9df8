// What the intakes tell the rest of the service as they take data in, so that it can act at once instead of
// at the next scheduled rebuild: which servers got new evidence (a report or a sensor outcome; the service
// then updates those servers' ratings and incidents within a minute), and why a sensor request was refused
// (counted per day and reason, with no address).
//
// The hooks travel as optional fields of the app's dependencies (`createHttpApp` hands its dependencies to
// the intakes whole); a caller that gives none loses nothing but the live updates and the refusal counts.

/** Optional callbacks the report and sensor intakes call; each must return at once and never throw. */
export interface IntakeHooks {
  /** These servers have new reports or sensor outcomes on disk. */
  onServerEvidence?(serverIds: readonly string[]): void;
  /** A sensor request was refused for this reason (the refusal's code, such as `daily_limit_reached`). */
  onSensorRefused?(reason: string): void;
}
