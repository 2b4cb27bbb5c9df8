// From a registry entry to what the quality score reads of it, and from a watched server to the score's view
// of a server. The registry is outside data: every field is read defensively and clipped to the stored limits,
// so an odd entry gives fewer facts, never a failed registry read.
import { REGISTRY_SCORE_FACTS_PATH } from '../data/paths.js';
import {
  type RegistryScoreFacts,
  RegistryScoreFactsFileSchema,
  RegistryScoreFactsSchema,
  type WatchedServer,
} from '../data/schemas.js';
import { getJsonOrNull, putJson, type Storage } from '../storage/storage.js';

// The limits of RegistryScoreFactsSchema, applied while building so that the stored facts always parse.
const TEXT_MAX = { registryId: 200, description: 2000, url: 2000, envName: 200, transport: 40, type: 40, id: 300 };
const ENV_VARS_MAX = 100;
const PACKAGES_MAX = 20;

/** The transport of every server the observatory watches: SSE-only remotes are left out before any check. */
export const WATCHED_TRANSPORT = 'streamable-http';

function recordOf(value: unknown): Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

function textOf(value: unknown, max: number): string | null {
  return typeof value === 'string' && value.trim() !== '' ? value.slice(0, max) : null;
}

function listOf(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

/** `{ name, isSecret }` entries of a list of environment variables or headers; entries without a name are skipped. */
function namedSecrets(list: unknown): RegistryScoreFacts['envVars'] {
  return listOf(list).flatMap((item) => {
    const name = textOf(recordOf(item).name, TEXT_MAX.envName);
    return name === null ? [] : [{ name, isSecret: recordOf(item).isSecret === true }];
  });
}

/**
 * The score facts of one registry entry (`server` of the registry's answer) for the remote the observatory
 * watches: name, description, repository and website, the environment variables of its packages plus the
 * remote's headers (each with `isSecret`), the remote's transport, and every package's type and identifier.
 *
 * @example scoreFactsOf({ name: 'io.github.acme/weather', description: 'Weather', repository: { url: 'https://github.com/acme/weather' } }, { type: 'streamable-http' })
 */
export function scoreFactsOf(entry: unknown, remote: unknown): RegistryScoreFacts {
  const server = recordOf(entry);
  const envVars = [
    ...listOf(server.packages).flatMap((p) => namedSecrets(recordOf(p).environmentVariables)),
    ...namedSecrets(recordOf(remote).headers),
  ].slice(0, ENV_VARS_MAX);
  const packages = listOf(server.packages)
    .flatMap((p) => {
      const registryType = textOf(recordOf(p).registryType, TEXT_MAX.type);
      const identifier = textOf(recordOf(p).identifier, TEXT_MAX.id);
      return registryType === null || identifier === null
        ? []
        : [{ registryType: registryType.toLowerCase(), identifier }];
    })
    .slice(0, PACKAGES_MAX);
  return RegistryScoreFactsSchema.parse({
    registryId: textOf(server.name, TEXT_MAX.registryId) ?? '',
    description: textOf(server.description, TEXT_MAX.description) ?? '',
    repositoryUrl: textOf(recordOf(server.repository).url, TEXT_MAX.url),
    websiteUrl: textOf(server.websiteUrl, TEXT_MAX.url),
    envVars,
    transport: textOf(recordOf(remote).type, TEXT_MAX.transport),
    packages,
  });
}

/** The first package of a registry type, or null. */
function firstPackage(facts: RegistryScoreFacts | undefined, type: string): string | null {
  return facts?.packages.find((p) => p.registryType === type)?.identifier ?? null;
}

/**
 * Where an OCI image is published: its Docker Hub page for an image there (no registry host, or docker.io),
 * else the image reference itself. The score asks only whether a container image exists.
 */
export function imagePageOf(identifier: string): string {
  const withoutTag = identifier.replace(/[@:][^/]*$/, '');
  const [first, ...rest] = withoutTag.split('/');
  const hasHost = rest.length > 0 && first !== undefined && (first.includes('.') || first.includes(':'));
  if (hasHost && first !== 'docker.io') return `https://${withoutTag}`;
  const path = hasHost ? rest.join('/') : withoutTag;
  return `https://hub.docker.com/r/${path.includes('/') ? path : `library/${path}`}`;
}

/** Replaces the registry score facts file with the facts of the registry read just made. */
export async function writeRegistryScoreFacts(
  storage: Storage,
  facts: ReadonlyMap<string, RegistryScoreFacts>,
): Promise<void> {
  await putJson(storage, REGISTRY_SCORE_FACTS_PATH, { servers: Object.fromEntries(facts) });
}

/**
 * Each registry-listed server's score facts, by id; none when the file is missing or does not parse (the
 * score then reads the server as the demo's and submitted servers are read: no registry facts).
 */
export async function readRegistryScoreFacts(storage: Storage): Promise<Map<string, RegistryScoreFacts>> {
  const parsed = RegistryScoreFactsFileSchema.safeParse(await getJsonOrNull(storage, REGISTRY_SCORE_FACTS_PATH));
  return new Map(parsed.success ? Object.entries(parsed.data.servers) : []);
}

/** The registry metadata the score reads, under the engine's key names. */
export function registryMetadataOf(
  facts: RegistryScoreFacts | undefined,
  extra: Record<string, unknown>,
): Record<string, unknown> {
  return {
    env_vars: facts?.envVars ?? [],
    transport: facts?.transport ?? WATCHED_TRANSPORT,
    ...(facts?.repositoryUrl ? { source_url: facts.repositoryUrl } : {}),
    ...(facts?.websiteUrl ? { homepage: facts.websiteUrl } : {}),
    ...extra,
  };
}

/** Package pages for the score's distribution part: npm, PyPI and a container image, '' for none. */
export function packagePagesOf(
  server: WatchedServer,
  facts: RegistryScoreFacts | undefined,
): { npmUrl: string; pypiUrl: string; dockerhubUrl: string } {
  const npm = firstPackage(facts, 'npm') ?? server.packages?.find((p) => p.registryType === 'npm')?.identifier;
  const pypi = firstPackage(facts, 'pypi') ?? server.packages?.find((p) => p.registryType === 'pypi')?.identifier;
  const oci = firstPackage(facts, 'oci');
  return {
    npmUrl: npm ? `https://www.npmjs.com/package/${npm}` : '',
    pypiUrl: pypi ? `https://pypi.org/project/${pypi}/` : '',
    dockerhubUrl: oci ? imagePageOf(oci) : '',
  };
}
