// What the intakes tell the rest of the service as they take data in, so that it can act at once instead of
// at the next scheduled rebuild: which servers got new evidence (a report or a sensor outcome; the service
// then updates those servers' ratings and incidents within a minute), and why a sensor request was refused
// (counted per day and reason, with no address), and what became of every submission (the intake metrics). The
// intakes call `onIntake` themselves, so a report counts the same whether it came by POST /api/reports or by
// the report_road MCP tool: both go through the report intake's submit.
//
// The hooks travel as optional fields of the app's dependencies (`createHttpApp` hands its dependencies to
// the intakes whole); a caller that gives none loses nothing but the live updates and the refusal counts.
import type { Answer, Refusal } from './errors.js';

/** The intakes whose outcomes are counted: agents' reports (HTTP and the report_road tool) and sensor batches. */
export type IntakeName = 'reports' | 'sensors';

/** What an intake did with one submission: stored it, or refused it (for any reason, our own failure included). */
export type IntakeOutcome = 'accepted' | 'refused';

/** Optional callbacks the report and sensor intakes call; each must return at once and never throw. */
export interface IntakeHooks {
  /**
   * One submission to `intake` ended with `outcome`: once per call of the intake's submit (whichever route or
   * tool called it), and once per request whose body could not be read, which the route reports to the intake.
   */
  onIntake?(intake: IntakeName, outcome: IntakeOutcome): void;
  /** These servers have new reports or sensor outcomes on disk. */
  onServerEvidence?(serverIds: readonly string[]): void;
  /** A sensor request was refused for this reason (the refusal's code, such as `daily_limit_reached`). */
  onSensorRefused?(reason: string): void;
}

/**
 * Runs one submission of `intake` and tells `hooks.onIntake` how it ended. A throw (our own failure, such as a
 * store that cannot write) is a refusal too, since nothing was kept; it is counted and thrown on.
 */
export async function countSubmission<T>(
  hooks: IntakeHooks,
  intake: IntakeName,
  submit: () => Promise<Answer<T>>,
): Promise<Answer<T>> {
  let answer: Answer<T>;
  try {
    answer = await submit();
  } catch (error) {
    hooks.onIntake?.(intake, 'refused');
    throw error;
  }
  hooks.onIntake?.(intake, answer.ok ? 'accepted' : 'refused');
  return answer;
}

/**
 * Counts a request to `intake` whose body could not be read (not JSON, another media type, too large) as a
 * refused submission, and gives its refusal back for the route to answer with. Such a request never reaches
 * submit, but it was a submission all the same, and it is counted as one.
 */
export function countUnreadable(hooks: IntakeHooks, intake: IntakeName, refusal: Refusal): Refusal {
  hooks.onIntake?.(intake, 'refused');
  return refusal;
}
