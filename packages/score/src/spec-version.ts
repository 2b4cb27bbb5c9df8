// Which MCP specification a server implements, read from its SDK dependency, from feature names in its source,
// or from the protocol version it answered with. Pure and synchronous: callers read the files, this reads text.
//
// The SDK mapping and the source markers are the open engine's (0.9.0). Reading the answered protocol version
// is ours: the engine has no function for it, but the observatory sees that answer in every daily handshake.

import { PY_WHITESPACE_CLASS, splitLinesPython, stripPython } from './python-text.js';
import { isRecord } from './values.js';

/** The MCP specification versions the engine tells apart, oldest first. */
export const SPEC_VERSIONS = Object.freeze(['2024-11-05', '2025-06-18', '2025-11-25'] as const);

/** A spec version the engine names, or 'unknown'. */
export type SpecVersion = (typeof SPEC_VERSIONS)[number] | 'unknown';

/**
 * Protocol versions an MCP server may answer with in `initialize`, oldest first. 2025-03-26 is a real version the
 * engine's SDK mapping skips (it maps SDKs of that time to 2025-06-18).
 */
export const KNOWN_PROTOCOL_VERSIONS = Object.freeze(['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25'] as const);

/** The lowest SDK version ([major, minor, patch]) that implements spec 2025-11-25 (engine: 1.6.0). */
export const SDK_MIN_FOR_2025_11_25: readonly [number, number, number] = Object.freeze([1, 6, 0]);
/** The lowest SDK version that implements spec 2025-06-18 (engine: 1.1.0); anything older is 2024-11-05. */
export const SDK_MIN_FOR_2025_06_18: readonly [number, number, number] = Object.freeze([1, 1, 0]);

/** The npm name of the TypeScript SDK, read from package.json. */
export const NODE_SDK_PACKAGE = '@modelcontextprotocol/sdk';
/** The PyPI name of the Python SDK, read from pyproject.toml. */
export const PYTHON_SDK_PACKAGE = 'mcp';

/**
 * Source-code markers of spec features (the engine's five), each tested case-insensitively over every file.
 * streamable_http and oauth mean at least 2025-06-18; elicitation, tasks and structured_output mean 2025-11-25.
 */
export const SPEC_FEATURE_MARKERS: Readonly<Record<string, RegExp>> = Object.freeze({
  streamable_http: /streamable[_-]?http|StreamableHTTP/i,
  oauth: /oauth[_-]?protected[_-]?resource|OAuthProvider/i,
  elicitation: /elicitation|createElicitation|ElicitationRequest/i,
  tasks: /tasks\/list|TaskRequest|server\.task\(/i,
  structured_output: /structuredOutput|structured_output|StructuredContent/i,
});

/** Features whose presence means spec 2025-11-25. */
export const FEATURES_2025_11_25: readonly string[] = Object.freeze(['elicitation', 'tasks', 'structured_output']);
/** Features whose presence means spec 2025-06-18. */
export const FEATURES_2025_06_18: readonly string[] = Object.freeze(['streamable_http', 'oauth']);

/** How a spec version was found, with the engine's field meanings (camelCase here). */
export interface SpecVersionResult {
  detectedSpecVersion: SpecVersion | string;
  /** The protocol version the server answered with, when that was the source. */
  protocolVersion: string | null;
  sdkName: string;
  /** The version text as written in the manifest ('^1.6.2', '>=1.6.0'). */
  sdkVersion: string;
  featuresDetected: string[];
  detectionSource: '' | 'sdk_version' | 'source_markers' | 'protocol_probe';
  confidence: 'high' | 'medium' | 'low';
}

function emptyResult(detectionSource: SpecVersionResult['detectionSource']): SpecVersionResult {
  return {
    detectedSpecVersion: 'unknown',
    protocolVersion: null,
    sdkName: '',
    sdkVersion: '',
    featuresDetected: [],
    detectionSource,
    confidence: 'low',
  };
}

const RANGE_PREFIX_CHARS = /^[\^~>=<! ]+/;
const FULL_VERSION = /^(\d+)\.(\d+)\.(\d+)/;
const MAJOR_MINOR = /^(\d+)\.(\d+)/;
const MAJOR_ONLY = /^(\d+)/;

/**
 * Reads the first version number out of a dependency's version text, as the engine does: range signs in front
 * are dropped, a missing minor or patch is 0, anything after the patch (pre-release, upper bound) is ignored.
 * Returns null when the text does not start with a number.
 *
 * @example parseSdkVersion('^1.6.2') // [1, 6, 2]
 * @example parseSdkVersion('>=1.2') // [1, 2, 0]
 */
export function parseSdkVersion(text: string): [number, number, number] | null {
  const cleaned = stripPython(text).replace(RANGE_PREFIX_CHARS, '');
  const full = FULL_VERSION.exec(cleaned);
  if (full) return [Number(full[1]), Number(full[2]), Number(full[3])];
  const majorMinor = MAJOR_MINOR.exec(cleaned);
  if (majorMinor) return [Number(majorMinor[1]), Number(majorMinor[2]), 0];
  const major = MAJOR_ONLY.exec(cleaned);
  return major ? [Number(major[1]), 0, 0] : null;
}

function isAtLeast(version: readonly number[], minimum: readonly number[]): boolean {
  for (let i = 0; i < minimum.length; i += 1) {
    const have = version[i] ?? 0;
    const need = minimum[i] ?? 0;
    if (have !== need) return have > need;
  }
  return true;
}

/**
 * The spec version an SDK version implements: 1.6.0 and later is 2025-11-25, 1.1.0 to 1.5.x is 2025-06-18,
 * older is 2024-11-05.
 */
export function specVersionForSdk(version: readonly [number, number, number]): SpecVersion {
  if (isAtLeast(version, SDK_MIN_FOR_2025_11_25)) return '2025-11-25';
  if (isAtLeast(version, SDK_MIN_FOR_2025_06_18)) return '2025-06-18';
  return '2024-11-05';
}

function detectFromPackageJson(content: string, result: SpecVersionResult): SpecVersionResult {
  let data: unknown;
  try {
    data = JSON.parse(content);
  } catch {
    return result;
  }
  if (!isRecord(data)) return result;
  // devDependencies win over dependencies when both name the SDK, as a dict update does in the engine.
  const deps: Record<string, unknown> = {};
  if (isRecord(data.dependencies)) Object.assign(deps, data.dependencies);
  if (isRecord(data.devDependencies)) Object.assign(deps, data.devDependencies);
  if (!Object.hasOwn(deps, NODE_SDK_PACKAGE)) return result;
  const versionText = deps[NODE_SDK_PACKAGE];
  result.sdkName = NODE_SDK_PACKAGE;
  if (typeof versionText !== 'string') return result;
  result.sdkVersion = versionText;
  const parsed = parseSdkVersion(versionText);
  if (parsed) {
    result.detectedSpecVersion = specVersionForSdk(parsed);
    result.confidence = 'high';
  }
  return result;
}

const PYPROJECT_MCP_LINE = new RegExp(`^["']?mcp${PY_WHITESPACE_CLASS}*([><=~!]+${PY_WHITESPACE_CLASS}*[\\d.]+)`);

function detectFromPyprojectToml(content: string, result: SpecVersionResult): SpecVersionResult {
  for (const rawLine of splitLinesPython(content)) {
    const match = PYPROJECT_MCP_LINE.exec(stripPython(rawLine));
    if (!match) continue;
    result.sdkName = PYTHON_SDK_PACKAGE;
    const versionPart = match[1] ?? '';
    result.sdkVersion = stripPython(versionPart);
    const parsed = parseSdkVersion(versionPart);
    if (parsed) {
      result.detectedSpecVersion = specVersionForSdk(parsed);
      result.confidence = 'high';
    }
    break;
  }
  return result;
}

/**
 * Finds the spec version from a manifest's text: the `@modelcontextprotocol/sdk` version in a package.json
 * (dependencies or devDependencies), or the first `mcp` requirement line with a version (`"mcp>=1.6.0"`) in a
 * pyproject.toml. A manifest that does not parse, or names no SDK, gives 'unknown' with confidence 'low'.
 *
 * @example detectSpecFromSdk('{"dependencies":{"@modelcontextprotocol/sdk":"^1.6.2"}}', 'package.json')
 * // { detectedSpecVersion: '2025-11-25', sdkVersion: '^1.6.2', confidence: 'high', ... }
 */
export function detectSpecFromSdk(manifestContent: string, manifestType: string): SpecVersionResult {
  const result = emptyResult('sdk_version');
  if (typeof manifestContent !== 'string') return result;
  if (manifestType === 'package.json') return detectFromPackageJson(manifestContent, result);
  if (manifestType === 'pyproject.toml') return detectFromPyprojectToml(manifestContent, result);
  return result;
}

/** A source file: its path and text. */
export interface SourceFile {
  path: string;
  content: string;
}

/**
 * Finds the spec version from feature names in source files: a 2025-11-25 feature anywhere gives 2025-11-25, else
 * a 2025-06-18 feature gives 2025-06-18, both with confidence 'medium'. `featuresDetected` is sorted.
 */
export function detectSpecFromSourceMarkers(sourceFiles: readonly SourceFile[]): SpecVersionResult {
  const result = emptyResult('source_markers');
  const found = new Set<string>();
  for (const file of Array.isArray(sourceFiles) ? sourceFiles : []) {
    const content = typeof file?.content === 'string' ? file.content : '';
    for (const [feature, pattern] of Object.entries(SPEC_FEATURE_MARKERS)) {
      if (pattern.test(content)) found.add(feature);
    }
  }
  result.featuresDetected = [...found].sort();
  if (FEATURES_2025_11_25.some((feature) => found.has(feature))) {
    result.detectedSpecVersion = '2025-11-25';
    result.confidence = 'medium';
  } else if (FEATURES_2025_06_18.some((feature) => found.has(feature))) {
    result.detectedSpecVersion = '2025-06-18';
    result.confidence = 'medium';
  }
  return result;
}

/**
 * Reads the spec version from the protocol version a server answered with in `initialize` (our addition). A
 * server answers the version the client asked for when it supports it, or else its own newest; so the answer
 * shows the server's newest version only up to the version the client asked for. That is exactly what the
 * OUTDATED_SPEC flag needs: an answer of 2024-11-05 to a newer request means the server knows nothing newer.
 * An unknown or missing answer gives 'unknown'.
 */
export function specVersionFromProtocolVersion(protocolVersion: string | null | undefined): SpecVersionResult {
  const result = emptyResult('protocol_probe');
  if (typeof protocolVersion !== 'string') return result;
  result.protocolVersion = protocolVersion;
  if ((KNOWN_PROTOCOL_VERSIONS as readonly string[]).includes(protocolVersion)) {
    result.detectedSpecVersion = protocolVersion;
    result.confidence = 'high';
  }
  return result;
}

/**
 * The result in the engine's `registryMetadata.spec_version` shape (snake_case keys), which detectFlags
 * (OUTDATED_SPEC) and the docs-and-maintenance bonus read.
 */
export function toSpecVersionMetadata(result: SpecVersionResult): Record<string, unknown> {
  return {
    detected_spec_version: result.detectedSpecVersion,
    protocol_version: result.protocolVersion,
    sdk_name: result.sdkName,
    sdk_version: result.sdkVersion,
    features_detected: [...result.featuresDetected],
    detection_source: result.detectionSource,
    confidence: result.confidence,
  };
}
