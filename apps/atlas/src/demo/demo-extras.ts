// The demo's owner, submission and route marks, each made through the code the service itself runs: the
// owner proves control through the owner intake and a real read of the token file the fleet member serves
// on loopback; the submission is observed by the schedule's observation task with real probes at its 6-hour
// slots; the marks are written as `mcp-atlas mark` writes them.

import { SUBMISSION_RULES } from '@mcp-atlas/operations/rules';
import { readOwnerToken } from '@mcp-atlas/probe';
import { type RouteMarkKind, setRouteMark } from '../data/route-marks.js';
import type { Answer } from '../http/errors.js';
import { createOwnerIntake, type OwnerStateAnswer } from '../http/owner-intake.js';
import { createOwnershipChecks } from '../http/ownership-check.js';
import type { Logger } from '../log.js';
import { createRateCounters } from '../owners/rate-counters.js';
import type { Storage } from '../storage/storage.js';
import { observeSubmissions } from '../submissions/observe.js';
import { readSubmission, type SubmissionRecord, startSubmission, writeSubmission } from '../submissions/records.js';
import type { AtlasView } from '../view/build-view.js';
import type { Fleet, FleetMember } from './fleet.js';
import { dayIndexOf, demoNetwork } from './live-checks.js';

/** The note the demo's owner writes, in their own words. */
export const DEMO_OWNER_NOTE = 'Maintained by the demo maps team; planned upgrades are announced a day ahead.';

/** The address the demo's owner and submitter call from (loopback: the demo serves nothing else). */
const DEMO_CALLER = { address: '127.0.0.1' };

/** Thrown when a step of the demo's own flows is refused: the demo's data would not show what it promises. */
export class DemoStepError extends Error {}

function answerValue<T>(answer: Answer<T>, step: string): T {
  if (answer.ok) return answer.value;
  throw new DemoStepError(
    `demo: ${step} was refused (${answer.refusal.status} ${answer.refusal.code}): ${answer.refusal.message}`,
  );
}

/** What {@link verifyDemoOwner} needs. */
export interface DemoOwnerInput {
  storage: Storage;
  view: AtlasView;
  fleet: Fleet;
  member: FleetMember;
  /** The serving process's reporter secret, which owner tokens are made with. */
  secret: Uint8Array;
  /** When the owner verifies (the ownership checks are dated with it). */
  at: Date;
  firstDay: string;
  log: Logger;
}

/**
 * The owner flow of one member, step by step as an owner would go through it: ask for the token, publish it
 * at the member's origin, have it read (verification), then set a note and ask for five-minute checks (which
 * reads the file again). Returns the owner's settings as the intake answered them.
 */
export async function verifyDemoOwner(input: DemoOwnerInput): Promise<OwnerStateAnswer> {
  const { storage, view, fleet, member, secret, at, firstDay, log } = input;
  const network = demoNetwork({ dayIndex: dayIndexOf(firstDay, at), at: at.toISOString() });
  const checks = createOwnershipChecks(
    createRateCounters(storage, () => at),
    (origin, kind, token) => readOwnerToken(origin, kind, token, network),
    () => at,
  );
  const intake = createOwnerIntake({ getView: () => view, storage, reporterSecret: secret, logger: log }, checks);
  const token = answerValue(intake.requestToken({ server: member.id }), 'the owner token request');
  fleet.publishVerifyToken(member.id, token.token);
  answerValue(await intake.verify({ server: member.id }, DEMO_CALLER), 'the owner verification');
  return answerValue(
    await intake.changeSettings({ server: member.id, note: DEMO_OWNER_NOTE, fiveMinuteChecks: true }, DEMO_CALLER),
    'the owner settings',
  );
}

/** What {@link observeDemoSubmission} needs. */
export interface DemoSubmissionInput {
  storage: Storage;
  member: FleetMember;
  submittedAt: Date;
  now: Date;
  firstDay: string;
  log: Logger;
}

/** The period of a submission's observation checks (the methodology's slots), in milliseconds. */
const SUBMISSION_SLOT_MS = SUBMISSION_RULES.checkIntervalHours * 3_600_000;

/**
 * Submits a member at `submittedAt` and runs the schedule's observation task at each of its 6-hour slots up
 * to `now` (a real probe each time, and a robots.txt read each UTC day). Returns the record as stored.
 */
export async function observeDemoSubmission(input: DemoSubmissionInput): Promise<SubmissionRecord> {
  const { storage, member, submittedAt, now, firstDay, log } = input;
  const url = new URL(member.publicUrl);
  const record = startSubmission(url.href, url.hostname, submittedAt, null);
  await writeSubmission(storage, record);
  for (let slot = submittedAt.getTime(); slot <= now.getTime(); slot += SUBMISSION_SLOT_MS) {
    const at = new Date(slot);
    await observeSubmissions({
      storage,
      network: demoNetwork({ dayIndex: dayIndexOf(firstDay, at), at: at.toISOString() }),
      log,
      optedOut: [],
      now: () => at,
    });
  }
  const stored = await readSubmission(storage, record.id);
  if (stored === null) throw new DemoStepError(`demo: the submission of ${member.id} was not stored`);
  return stored;
}

/** The route marks the demo sets: a gateway and a directory-listed server. */
export const DEMO_ROUTE_MARKS: readonly { kind: RouteMarkKind; server: string }[] = [
  { kind: 'gateway', server: 'calendar' },
  { kind: 'directory', server: 'weather' },
];

/** Sets the demo's route marks, as `mcp-atlas mark` does. */
export async function markDemoRoutes(storage: Storage): Promise<void> {
  for (const mark of DEMO_ROUTE_MARKS) await setRouteMark(storage, mark.kind, mark.server, true);
}
