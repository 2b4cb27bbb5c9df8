// Pure module: the one error this package throws, for callers that break the API contract.
// Anything a server sends (any JSON value inside a tools array) is a verdict, never an error.

/** Which contract a caller broke; stable, so callers can branch on it instead of on the message. */
export type RiskOptionsErrorCode =
  | 'tools-not-array'
  | 'policy-not-object'
  | 'unknown-option'
  | 'bad-decision'
  | 'bad-trust'
  | 'context-not-object'
  | 'words-not-array'
  | 'word-not-string'
  | 'empty-word'
  | 'too-many-words'
  | 'word-conflict'
  | 'words-fixed';

/**
 * Thrown when a caller passes options the API does not accept: a policy that is not an object or names an
 * unknown option, a decision a level cannot take (high-risk is never `allow`), a custom word that is empty,
 * not a string, more words than its list takes, or a reading verb the built-in lists already call changing or
 * high-risk, or word lists passed to a classifier's bound call instead of to `createClassifier`, or a tools
 * argument that is not an array. Like every package's error class it extends `Error`, and its kebab-case `code`
 * says which case. Nothing inside a tools array ever causes it.
 *
 * @example
 * try { createClassifier({ extraReadVerbs: ['run'] }) } catch (error) {
 *   if (error instanceof RiskOptionsError && error.code === 'word-conflict') { ... }
 * }
 */
export class RiskOptionsError extends Error {
  readonly code: RiskOptionsErrorCode;

  constructor(code: RiskOptionsErrorCode, message: string) {
    super(message);
    this.name = 'RiskOptionsError';
    this.code = code;
  }
}
