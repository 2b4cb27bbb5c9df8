// Runtime-neutral module (network only through the injected client): the current version of an npm package
// (its `latest` dist-tag) and of a PyPI project (`info.version` of the JSON API), read from the public
// package metadata with the probe's guard, pinning, time limit and size cap.
import { describeType } from '@mcp-atlas/base';
import { z } from 'zod';
import { ProbeInputError } from './errors.js';
import { type NetworkOptions, resolveNetworkSettings } from './options.js';
import {
  DEFAULT_NPM_REGISTRY_URL,
  DEFAULT_PYPI_URL,
  NPM_ACCEPT,
  NPM_LATEST_TAG,
  NPM_NAME_MAX_LENGTH,
  PACKAGE_METADATA_CAP_BYTES,
  PACKAGE_METADATA_MAX_REDIRECTS,
  PACKAGE_METADATA_TIMEOUT_MS,
  PACKAGE_VERSION_MAX_LENGTH,
  PYPI_NAME_MAX_LENGTH,
} from './outside-constants.js';
import { normalizeBaseUrl, type OutsideFailureReason, requestOutsideJson } from './outside-request.js';

/** The package ecosystems read, spelled as OSV spells them. */
export type PackageEcosystem = 'npm' | 'PyPI';

/** Options of `readNpmPackage`. */
export interface NpmReadOptions extends NetworkOptions {
  /** The registry's base URL; the document is `<registryUrl>/<name>`. Default https://registry.npmjs.org. */
  registryUrl?: string;
}

/** Options of `readPypiPackage`. */
export interface PypiReadOptions extends NetworkOptions {
  /** PyPI's base URL; the document is `<pypiUrl>/pypi/<name>/json`. Default https://pypi.org. */
  pypiUrl?: string;
}

/** What a package read found: the current version, or why there is none. */
export type PackageVersionRead =
  | {
      ok: true;
      ecosystem: PackageEcosystem;
      /** The name as the ecosystem compares it (PyPI: PEP 503 normal form; npm: as given). */
      name: string;
      /** The current version: npm's `latest` dist-tag, PyPI's `info.version`. */
      version: string;
      /** The URL that answered (after redirects). */
      url: string;
    }
  | {
      ok: false;
      ecosystem: PackageEcosystem;
      name: string;
      reason: OutsideFailureReason;
      message: string;
      /** The URL asked, or null when nothing was asked (an invalid name). */
      url: string | null;
      httpStatus: number | null;
    };

const VERSION = z.string().min(1).max(PACKAGE_VERSION_MAX_LENGTH);

/** The part of an npm package document read here. */
export const NpmPackageDocumentSchema = z.looseObject({
  name: z.string().optional(),
  'dist-tags': z.record(z.string(), z.string()),
});

/** The part of a PyPI JSON API answer read here. */
export const PypiProjectSchema = z.looseObject({
  info: z.looseObject({ name: z.string().optional(), version: z.string() }),
});

// The npm rules for new names (validate-npm-package-name), with capitals allowed because old packages have them.
const NPM_NAME = /^(?:@[a-z0-9-*~][a-z0-9-*._~]*\/)?[a-z0-9-~][a-z0-9-._~]*$/i;
// PEP 508's name rule.
const PYPI_NAME = /^([A-Z0-9]|[A-Z0-9][A-Z0-9._-]*[A-Z0-9])$/i;

/** @internal A package name argument, refused unless a string. */
export function checkName(name: unknown): string {
  if (typeof name !== 'string')
    throw new ProbeInputError('invalid-option', `name must be a string, got ${describeType(name, { article: true })}`);
  return name;
}

/** True when `name` can be an npm package name (scoped or not). */
export function isNpmPackageName(name: string): boolean {
  return name.length > 0 && name.length <= NPM_NAME_MAX_LENGTH && NPM_NAME.test(name);
}

/**
 * The path segment of an npm package document: a scoped name keeps its `@` and has its slash written
 * `%2F`, as the registry expects (`@scope/pkg` -> `@scope%2Fpkg`).
 *
 * @example npmDocumentPath('@modelcontextprotocol/sdk') // '@modelcontextprotocol%2Fsdk'
 */
export function npmDocumentPath(name: string): string {
  if (name.startsWith('@')) {
    const slash = name.indexOf('/');
    return `@${encodeURIComponent(name.slice(1, slash))}%2F${encodeURIComponent(name.slice(slash + 1))}`;
  }
  return encodeURIComponent(name);
}

/**
 * A PyPI project name in PEP 503 normal form (lower case, runs of `-`, `_` and `.` as one `-`), the form
 * PyPI's URLs and OSV use; null when it is not a PEP 508 name.
 *
 * @example normalizePypiName('Foo__Bar.baz') // 'foo-bar-baz'
 */
export function normalizePypiName(name: string): string | null {
  if (name.length === 0 || name.length > PYPI_NAME_MAX_LENGTH || !PYPI_NAME.test(name)) return null;
  return name.toLowerCase().replace(/[-_.]+/g, '-');
}

/** @internal A base URL option, or its default; refused when it cannot be a base. */
export function baseOf(value: unknown, fallback: string, option: string): string {
  const base = normalizeBaseUrl(value ?? fallback);
  if (base === null)
    throw new ProbeInputError(
      'invalid-origin',
      `${option} must be an absolute http(s) URL without query, got ${String(value).slice(0, 100)}`,
    );
  return base;
}

function issueOf(error: z.ZodError): string {
  const issue = error.issues[0];
  return `${issue?.message ?? 'invalid'} at ${issue?.path.join('.') || 'the top'}`;
}

/**
 * Reads an npm package's document (`<registryUrl>/<name>`, the abbreviated form) and returns its `latest`
 * dist-tag. A name npm cannot hold is refused before any request (`invalid-name`). Never throws for what
 * the registry does.
 *
 * @example
 * const read = await readNpmPackage('@modelcontextprotocol/sdk', { ...nodeNetwork });
 * if (read.ok) console.log(read.version);
 */
export async function readNpmPackage(name: string, options?: NpmReadOptions): Promise<PackageVersionRead> {
  checkName(name);
  const base = baseOf(options?.registryUrl, DEFAULT_NPM_REGISTRY_URL, 'registryUrl');
  const network = resolveNetworkSettings(options);
  if (!isNpmPackageName(name)) {
    return {
      ok: false,
      ecosystem: 'npm',
      name,
      reason: 'invalid-name',
      message: `${JSON.stringify(name.slice(0, 100))} is not an npm package name`,
      url: null,
      httpStatus: null,
    };
  }
  const answer = await requestOutsideJson(
    {
      url: `${base}/${npmDocumentPath(name)}`,
      method: 'GET',
      accept: NPM_ACCEPT,
      timeoutMs: PACKAGE_METADATA_TIMEOUT_MS,
      capBytes: PACKAGE_METADATA_CAP_BYTES,
      maxRedirects: PACKAGE_METADATA_MAX_REDIRECTS,
    },
    network,
  );
  if (!answer.ok) {
    const message = answer.httpStatus === 404 ? `npm has no package ${name} (HTTP 404)` : answer.message;
    return {
      ok: false,
      ecosystem: 'npm',
      name,
      reason: answer.reason,
      message,
      url: answer.url,
      httpStatus: answer.httpStatus,
    };
  }
  const failed = (reason: OutsideFailureReason, message: string): PackageVersionRead => ({
    ok: false,
    ecosystem: 'npm',
    name,
    reason,
    message,
    url: answer.url,
    httpStatus: answer.status,
  });
  const document = NpmPackageDocumentSchema.safeParse(answer.json);
  if (!document.success) return failed('unexpected-answer', `not an npm package document: ${issueOf(document.error)}`);
  if (document.data.name !== undefined && document.data.name.toLowerCase() !== name.toLowerCase()) {
    return failed('unexpected-answer', `the document is for ${document.data.name.slice(0, 100)}, not ${name}`);
  }
  const latest = VERSION.safeParse(document.data['dist-tags'][NPM_LATEST_TAG]);
  if (!latest.success)
    return failed('no-version', `the document of ${name} has no usable "${NPM_LATEST_TAG}" dist-tag`);
  return { ok: true, ecosystem: 'npm', name, version: latest.data, url: answer.url };
}

/**
 * Reads a PyPI project from the JSON API (`<pypiUrl>/pypi/<name>/json`, the name in PEP 503 normal form)
 * and returns `info.version`, its current version. A name that is not a PEP 508 name is refused before any
 * request (`invalid-name`). Never throws for what PyPI does.
 *
 * @example
 * const read = await readPypiPackage('mcp-server-fetch', { ...nodeNetwork });
 * if (read.ok) console.log(read.version);
 */
export async function readPypiPackage(name: string, options?: PypiReadOptions): Promise<PackageVersionRead> {
  checkName(name);
  const base = baseOf(options?.pypiUrl, DEFAULT_PYPI_URL, 'pypiUrl');
  const network = resolveNetworkSettings(options);
  const normal = normalizePypiName(name);
  if (normal === null) {
    return {
      ok: false,
      ecosystem: 'PyPI',
      name,
      reason: 'invalid-name',
      message: `${JSON.stringify(name.slice(0, 100))} is not a PyPI project name`,
      url: null,
      httpStatus: null,
    };
  }
  const answer = await requestOutsideJson(
    {
      url: `${base}/pypi/${normal}/json`,
      method: 'GET',
      accept: 'application/json',
      timeoutMs: PACKAGE_METADATA_TIMEOUT_MS,
      capBytes: PACKAGE_METADATA_CAP_BYTES,
      maxRedirects: PACKAGE_METADATA_MAX_REDIRECTS,
    },
    network,
  );
  if (!answer.ok) {
    const message = answer.httpStatus === 404 ? `PyPI has no project ${normal} (HTTP 404)` : answer.message;
    return {
      ok: false,
      ecosystem: 'PyPI',
      name: normal,
      reason: answer.reason,
      message,
      url: answer.url,
      httpStatus: answer.httpStatus,
    };
  }
  const failed = (reason: OutsideFailureReason, message: string): PackageVersionRead => ({
    ok: false,
    ecosystem: 'PyPI',
    name: normal,
    reason,
    message,
    url: answer.url,
    httpStatus: answer.status,
  });
  const project = PypiProjectSchema.safeParse(answer.json);
  if (!project.success) return failed('unexpected-answer', `not a PyPI JSON API answer: ${issueOf(project.error)}`);
  const named = project.data.info.name;
  if (named !== undefined && normalizePypiName(named) !== normal)
    return failed('unexpected-answer', `the answer is for ${named.slice(0, 100)}, not ${normal}`);
  const version = VERSION.safeParse(project.data.info.version);
  if (!version.success) return failed('no-version', `the answer for ${normal} has no usable info.version`);
  return { ok: true, ecosystem: 'PyPI', name: normal, version: version.data, url: answer.url };
}
