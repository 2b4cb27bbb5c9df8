// `mcp-atlas site <url>`: the probe's site check ("MCP server answers and lists its tools") from the command line,
// for a site owner who wants to know whether an agent can find and use the MCP server their site announces.
// It reads the site's documents first (so it can say which were found), runs `checkSite` with them, and prints
// discovery, the session and the verdict in plain words; `--json` prints the result object instead.
// Exit codes: 0 pass, 1 any other verdict (partial, fail, not measured, out of scope), 2 usage error.
// Given a store (--data, --store or their environment variables), it honours the service's opt-out list, as every
// check the service runs does; without one it has no list to read.
import { parseArgs } from 'node:util';
import {
  type AuthDiscovery,
  type CheckSiteOptions,
  checkSite,
  ProbeInputError,
  readSiteDocuments,
  type SiteCheckResult,
  type SiteDocuments,
  type SiteVerdict,
} from '@mcp-atlas/probe';
import { nodeNetwork } from '@mcp-atlas/probe/node';
import { DOCUMENT_RULES, SITE_CHECK_RULES } from '@mcp-atlas/probe/rules';
import { readOptedOutHosts } from '../data/opted-out.js';
import { openExistingDataFolder } from './operator-args.js';
import {
  DATA_FOLDER_ENV,
  EXIT_FAILED,
  EXIT_OK,
  EXIT_USAGE,
  type Flags,
  STORE_ENV,
  UsageError,
  usageHint,
  withSettings,
} from './shared.js';

/** The command line of site, as its usage and error texts show it. */
const SITE_SYNOPSIS = 'mcp-atlas site <url> [--json] [--allow-private] [--data DIR | --store URL]';

/** The usage lines of site, for the app's help text. */
export const SITE_USAGE = `  site    <url> [--json] [--allow-private]      can an agent find and use this site's MCP server? discovery (server
                                                card, ai-catalog, Link rel, /mcp), the session and the verdict: pass,
                                                partial, fail, not measured. Exit codes: 0 pass, 1 any other verdict, 2 usage error
          [--data DIR | --store URL]            a service's store (or ${STORE_ENV} / ${DATA_FOLDER_ENV}): an endpoint on a
                                                subdomain its owner opted out of is not requested (not measured)`;

/** Where site writes and how it reaches the network; tests pass their own. */
export interface SiteEnvironment {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  /** The probe's network options; the default is the Node network (DNS checked, connections pinned). */
  network?: Pick<CheckSiteOptions, 'httpClient' | 'lookup' | 'fetch' | 'clock'>;
  /** The environment variables a store may be named by; the default is the process's. */
  variables?: NodeJS.ProcessEnv;
}

const defaultEnvironment = (): SiteEnvironment => ({
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
});

/** What each verdict means to a site owner, in one sentence. */
export const SITE_VERDICT_WORDS: Readonly<Record<SiteVerdict, string>> = {
  pass: 'PASS: an agent can find your MCP server and it lists its tools.',
  partial: 'PARTIAL: your MCP server answers, but an agent cannot list its tools without more.',
  fail: 'FAIL: the endpoint your site names does not answer as an MCP server should.',
  'not-measured': 'NOT MEASURED: the check could not reach a verdict, which says nothing against your server.',
  'out-of-scope': 'NOT FOUND: nothing on this site names an MCP endpoint, and /mcp does not answer as one.',
};

const SOURCE_WORDS: Readonly<Record<string, string>> = {
  'server-card': `the server card (${DOCUMENT_RULES.serverCardPath})`,
  'legacy-server-card': 'an older server card location',
  'ai-catalog': `a server card listed in ${DOCUMENT_RULES.aiCatalogPath}`,
  'link-header': 'the Link header of the home page',
  'link-element': 'a <link rel="mcp"> element in the home page',
  'mcp-path': `the plain ${DOCUMENT_RULES.mcpDefaultPath} path`,
};

const found = (yes: boolean): string => (yes ? 'found' : 'not found');

function discoveryLines(result: SiteCheckResult, documents: SiteDocuments): string[] {
  const linkNamed = result.discovery.candidates.some((c) => c.source === 'link-header' || c.source === 'link-element');
  const lines = [
    `server card ${DOCUMENT_RULES.serverCardPath}: ${found(documents.serverCard !== undefined)}`,
    `older server card locations: ${found((documents.legacyServerCards ?? []).length > 0)}`,
    `ai-catalog ${DOCUMENT_RULES.aiCatalogPath}: ${found(documents.aiCatalog !== undefined)}`,
    `Link header or <link rel="mcp"> on the home page: ${linkNamed ? 'names an endpoint' : 'none'}`,
  ];
  const path = result.discovery.mcpPath;
  if (path !== null)
    lines.push(
      `GET ${DOCUMENT_RULES.mcpDefaultPath}: ${
        path.failure !== null
          ? `no answer (${path.failure})`
          : `HTTP ${path.httpStatus ?? '?'}${path.signalsMcp ? ', which signals an MCP endpoint' : ', which does not signal MCP'}`
      }`,
    );
  for (const candidate of result.discovery.candidates)
    if (candidate.rejected !== null)
      lines.push(`not used: ${candidate.url} from ${SOURCE_WORDS[candidate.source]}: ${candidate.rejected}`);
  lines.push(
    result.endpoint === null
      ? 'endpoint: none found'
      : `endpoint: ${result.endpoint}, named by ${SOURCE_WORDS[result.source ?? ''] ?? 'discovery'}`,
  );
  return lines;
}

function sessionLines(result: SiteCheckResult): string[] {
  if (result.steps.length === 0) return ['no request was sent to the endpoint'];
  return [
    `${result.posts} of at most ${SITE_CHECK_RULES.maxPosts} POST requests`,
    ...result.steps.map((step, index) => {
      const status = step.httpStatus === null ? 'no HTTP answer' : `HTTP ${step.httpStatus}`;
      const detail = step.detail === null ? '' : ` (${step.detail})`;
      return `${index + 1}. ${step.name}: ${step.outcome}, ${status}, ${Math.round(step.elapsedMs)} ms${detail}`;
    }),
  ];
}

const RESOURCE_SOURCE_WORDS: Readonly<Record<ProtectedResourceSource, string>> = {
  'www-authenticate': 'named by the WWW-Authenticate challenge',
  path: 'at the path-based well-known location',
  root: 'at the root well-known location',
};

type ProtectedResourceSource = NonNullable<AuthDiscovery['protectedResource']>['source'];

/** What read-only sign-in discovery found after the endpoint asked for sign-in; nothing when it did not ask. */
function signInLines(found: AuthDiscovery | null): string[] {
  if (found === null) return [];
  const resource = found.protectedResource;
  const server = found.authorizationServer;
  const metadata = found.authorizationServerMetadata;
  return [
    '',
    'Sign-in (what an agent reads to find where to sign in; nothing is signed in to):',
    `  protected resource metadata: ${resource === null ? 'not found' : `${resource.url}, ${RESOURCE_SOURCE_WORDS[resource.source]}`}`,
    `  authorization server: ${server === null ? 'none named' : `${server.issuer}${server.source === 'server-origin' ? ' (the server itself, as the 2025-03-26 spec read it)' : ''}`}`,
    `  authorization server metadata: ${metadata === null ? 'not found' : `${metadata.url} (${metadata.kind === 'oauth' ? 'OAuth' : 'OpenID Connect'})`}`,
    `  documents read: ${found.reads.length}`,
  ];
}

/** The site check as text a site owner can read without knowing the code. */
export function formatSiteText(result: SiteCheckResult, documents: SiteDocuments, allowPrivate = false): string {
  const lines = [
    `mcp-atlas site ${result.origin}`,
    '',
    'Discovery (how an agent finds your MCP endpoint):',
    ...discoveryLines(result, documents).map((line) => `  ${line}`),
    '',
    'Session (what the endpoint answered):',
    ...sessionLines(result).map((line) => `  ${line}`),
  ];
  if (result.toolCount > 0)
    lines.push(
      `  tools listed: ${result.toolCount}${result.toolNames.length > 0 ? ` (${result.toolNames.join(', ')}${result.toolNames.length < result.toolCount ? ', ...' : ''})` : ''}`,
    );
  if (result.protocolVersion !== null) lines.push(`  protocol version: ${result.protocolVersion}`);
  lines.push(...signInLines(result.authDiscovery));
  lines.push(
    '',
    `Verdict: ${SITE_VERDICT_WORDS[result.verdict]}`,
    `Why: ${result.message} (${result.reason})`,
    ...(result.defect
      ? ['This is a defect of the endpoint: it answered with something that is not an MCP answer.']
      : []),
  );
  if (result.reason === 'guard' && !allowPrivate)
    lines.push('A site on this machine or a private network is only checked with --allow-private.');
  return `${lines.join('\n')}\n`;
}

const OPTIONS = {
  json: { type: 'boolean' },
  'allow-private': { type: 'boolean' },
  data: { type: 'string' },
  store: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

// One line and a hint, so the message is not lost above the whole usage text in a journal or a container log.
function usage(env: SiteEnvironment, message: string): number {
  env.stderr(`mcp-atlas site: ${message}\n${usageHint('site')}\n`);
  return EXIT_USAGE;
}

/**
 * Whether a store is named: --data or --store, or MCP_ATLAS_STORE or MCP_ATLAS_DATA set (an empty value counts as
 * unset). Unlike the service's commands, site does not fall back to ./atlas-data: a site owner checking a site has
 * no service, and the command must not create or read a folder nobody asked for.
 */
function isStoreNamed(flags: Flags, variables: NodeJS.ProcessEnv): boolean {
  if (typeof flags.data === 'string' || typeof flags.store === 'string') return true;
  return [STORE_ENV, DATA_FOLDER_ENV].some((name) => (variables[name] ?? '') !== '');
}

/**
 * The hosts the service's owners opted out (a name covers its subdomains), read from the named store as every
 * check of the service reads them; none when no store is named. A named store that does not exist is a usage error.
 */
async function readRemovalList(flags: Flags, variables: NodeJS.ProcessEnv): Promise<string[]> {
  if (!isStoreNamed(flags, variables)) return [];
  return readOptedOutHosts(await openExistingDataFolder(flags, variables));
}

/**
 * Runs `mcp-atlas site` with the arguments after the word `site` and resolves to its exit code: 0 when the verdict
 * is pass, 1 for any other verdict, 2 for a usage error.
 *
 * @example await commandSite(['https://example.com', '--json'])
 */
export async function commandSite(
  args: readonly string[],
  env: SiteEnvironment = defaultEnvironment(),
): Promise<number> {
  let parsed: {
    values: { json?: boolean; 'allow-private'?: boolean; data?: string; store?: string; help?: boolean };
    positionals: string[];
  };
  try {
    parsed = parseArgs({ args: [...args], options: OPTIONS, allowPositionals: true, strict: true });
  } catch (error) {
    return usage(env, (error as Error).message);
  }
  if (parsed.values.help === true) {
    env.stdout(`Usage: ${SITE_SYNOPSIS}\n${SITE_USAGE}\n`);
    return EXIT_OK;
  }
  if (parsed.positionals.length !== 1) return usage(env, 'give one site URL, such as https://example.com');
  let origin: string;
  try {
    const url = new URL(parsed.positionals[0] as string);
    if (url.protocol !== 'https:' && url.protocol !== 'http:') return usage(env, 'the URL must be http or https');
    if (url.username !== '' || url.password !== '') return usage(env, 'the URL may not carry a user name or password');
    origin = url.origin;
  } catch {
    return usage(env, 'the site is not an absolute URL such as https://example.com');
  }
  const variables = env.variables ?? process.env;
  let optedOut: string[];
  let allowPrivate: boolean;
  try {
    allowPrivate = withSettings(parsed.values, OPTIONS, variables)['allow-private'] === true;
    optedOut = await readRemovalList(parsed.values, variables);
  } catch (error) {
    if (error instanceof UsageError) return usage(env, error.message);
    throw error;
  }
  const options: CheckSiteOptions = {
    ...(env.network ?? nodeNetwork),
    ...(allowPrivate ? { allowPrivate: true } : {}),
    optedOut,
  };
  try {
    const documents = await readSiteDocuments(origin, options);
    const result = await checkSite(origin, { ...options, documents });
    env.stdout(
      parsed.values.json === true
        ? `${JSON.stringify(result, null, 2)}\n`
        : formatSiteText(result, documents, allowPrivate),
    );
    return result.verdict === 'pass' ? EXIT_OK : EXIT_FAILED;
  } catch (error) {
    if (error instanceof ProbeInputError) return usage(env, error.message);
    throw error;
  }
}
