/**
 * Secret environment variables in a registry entry. Pure module: no I/O, no clock.
 *
 * The engine reads `registryMetadata.env_vars` as a list of names and calls a variable secret when
 * its name matches {@link SECRET_ENV_VAR_PATTERN}. The official registry also says so itself
 * (`isSecret: true` on an environment variable), so an entry may be a name or an object
 * `{ name, isSecret }`; a variable is secret when the registry says so or its name matches. For a
 * list of plain names this is exactly the engine's count.
 */

import { isRecord } from './values.js';

/**
 * Builds a case-insensitive pattern that matches what Python's `re.IGNORECASE` matches on these ASCII
 * patterns: with the `u` flag JavaScript also folds the long s (U+017F) to s and the Kelvin sign (U+212A)
 * to k, as Python does; Python's `i` also matches the dotless ı and the dotted İ, so `i` is spelled out.
 */
function pythonIgnoreCase(source: string): RegExp {
  return new RegExp(source.replace(/i/g, '[iıİ]'), 'iu');
}

/**
 * Names that mark a secret (engine 0.9.0), case-insensitive, anywhere in the name: api_key / api-key /
 * apikey, secret, token, password, auth, credential, private_key / private-key / privatekey.
 */
export const SECRET_ENV_VAR_PATTERN = pythonIgnoreCase(
  ['api[_-]?key', 'secret', 'token', 'password', 'auth', 'credential', 'private[_-]?key'].join('|'),
);

/**
 * Names of highly sensitive credentials (engine 0.9.0), case-insensitive, anywhere in the name: private
 * keys, databases (database, db_, postgres, mysql, redis, mongo, mongo uri, connection string), cloud
 * secrets (aws_secret, azure secret, gcp key, gcloud), payment and messaging services (stripe secret,
 * twilio, sendgrid), and signing or transport keys (jwt secret, encryption key, ssh key, ssl cert).
 * Used by the security score's credential-sensitivity part.
 */
export const HIGH_SENSITIVITY_ENV_VAR_PATTERN = pythonIgnoreCase(
  [
    'private[_-]?key',
    'database',
    'db_',
    'postgres',
    'mysql',
    'redis',
    'mongo',
    'aws_secret',
    'azure[_-]?secret',
    'gcp[_-]?key',
    'gcloud',
    'stripe[_-]?secret',
    'twilio',
    'sendgrid',
    'mongo[_-]?uri',
    'connection[_-]?string',
    'jwt[_-]?secret',
    'encryption[_-]?key',
    'ssh[_-]?key',
    'ssl[_-]?cert',
  ].join('|'),
);

/** One entry of `registryMetadata.env_vars`: a name, or the registry's object with a name and `isSecret`. */
export type EnvVarEntry = string | { name: string; isSecret?: boolean };

/** The entry's name: the string itself, or the object's `name`; '' when there is none. */
export function envVarName(entry: unknown): string {
  if (typeof entry === 'string') return entry;
  if (isRecord(entry) && typeof entry.name === 'string') return entry.name;
  return '';
}

/**
 * True when the variable is a secret: the registry marks it `isSecret: true`, or its name matches
 * {@link SECRET_ENV_VAR_PATTERN}. `isSecretEnvVar('GITHUB_TOKEN')` and
 * `isSecretEnvVar({ name: 'ACME_LOGIN', isSecret: true })` are true; `isSecretEnvVar('PORT')` is false.
 */
export function isSecretEnvVar(entry: unknown): boolean {
  if (isRecord(entry) && entry.isSecret === true) return true;
  return SECRET_ENV_VAR_PATTERN.test(envVarName(entry));
}

/** True when the variable's name matches {@link HIGH_SENSITIVITY_ENV_VAR_PATTERN}. */
export function isHighlySensitiveEnvVar(entry: unknown): boolean {
  return HIGH_SENSITIVITY_ENV_VAR_PATTERN.test(envVarName(entry));
}

/**
 * The entries of `registryMetadata.env_vars` (the engine's key), or [] when it is missing or not a list.
 */
export function envVarsOf(registryMetadata: Record<string, unknown> | null | undefined): unknown[] {
  const list = registryMetadata?.env_vars;
  return Array.isArray(list) ? list : [];
}

/** Names of the secret variables of a registry entry, in their listed order. */
export function secretEnvVarNames(registryMetadata: Record<string, unknown> | null | undefined): string[] {
  return envVarsOf(registryMetadata).filter(isSecretEnvVar).map(envVarName);
}
