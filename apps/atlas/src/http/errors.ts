// Refusals as values: every route answers a caller's mistake with one JSON shape, `{ error: { code,
// message } }`, and a status that says whose move it is. Nothing here throws for a caller's mistake.
import type { z } from 'zod';
import type { ErrorBody } from './schemas.js';

/** Statuses a refusal may carry. */
export type RefusalStatus = 400 | 401 | 403 | 404 | 405 | 409 | 413 | 415 | 421 | 429 | 500 | 503;

/** A request refused: the HTTP status, a stable code, a message, and optional details. */
export interface Refusal {
  status: RefusalStatus;
  code: string;
  message: string;
  issues?: { path: string; message: string }[];
  /** The quota or size limit that refused the request, when one did. */
  limit?: number;
}

/** A value, or the refusal that stands in its place. */
export type Answer<T> = { ok: true; value: T } | { ok: false; refusal: Refusal };

/** Builds a refusal. */
export function refuse(
  status: RefusalStatus,
  code: string,
  message: string,
  extra: Pick<Refusal, 'issues' | 'limit'> = {},
): Refusal {
  return { status, code, message, ...extra };
}

/** The JSON body of a refusal. */
export function errorBody(refusal: Refusal): ErrorBody {
  return {
    error: {
      code: refusal.code,
      message: refusal.message,
      ...(refusal.issues !== undefined ? { issues: refusal.issues } : {}),
      ...(refusal.limit !== undefined ? { limit: refusal.limit } : {}),
    },
  };
}

/** Each zod issue as a path (dotted, `(body)` or `(query)` for the whole) and its message. */
export function describeIssues(error: z.ZodError, whole: string): { path: string; message: string }[] {
  return error.issues.map((issue) => ({
    path: issue.path.length === 0 ? whole : issue.path.map(String).join('.'),
    message: issue.message,
  }));
}

/** A 400 for input that failed its schema; the message lists every issue so one round trip fixes them all. */
export function invalidInput(
  code: 'invalid_query' | 'invalid_path' | 'invalid_body',
  error: z.ZodError,
  whole: string,
): Refusal {
  const issues = describeIssues(error, whole);
  const message = issues.map((issue) => `${issue.path}: ${issue.message}`).join('; ');
  return refuse(400, code, message, { issues });
}
