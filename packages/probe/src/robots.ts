// Runtime-neutral module (no node: imports; network only through the injected client): robots.txt read the RFC 9309 way. Parsing, group
// selection and path matching are pure functions; readRobots fetches within 3 s and treats no answer as
// permission.
import { describeType } from '@mcp-atlas/base';
import { ROBOTS_CAP_BYTES, ROBOTS_MAX_REDIRECTS, ROBOTS_PATH, ROBOTS_TIMEOUT_MS } from './constants.js';
import { ProbeInputError } from './errors.js';
import { getDocument } from './get-document.js';
import { type NetworkOptions, resolveNetworkSettings } from './options.js';
import type { RobotsPolicy, RobotsRule } from './schemas.js';

/** One group of a robots.txt: the user-agent lines that open it and the rules under them. */
export interface RobotsGroup {
  readonly agents: readonly string[];
  readonly rules: readonly RobotsRule[];
}

const TOKEN = /^[A-Za-z_-]+$/;

/**
 * Splits robots.txt text into groups. Consecutive `user-agent` lines open one group; `allow` and
 * `disallow` lines belong to the group above them; rules before any group, other fields (sitemap,
 * crawl-delay) and malformed lines are ignored; an empty `disallow` value allows everything and so adds
 * no rule. Field names are case-insensitive; `#` starts a comment.
 */
export function parseRobots(text: string): RobotsGroup[] {
  const groups: { agents: string[]; rules: RobotsRule[] }[] = [];
  let current: { agents: string[]; rules: RobotsRule[] } | null = null;
  let lastWasAgent = false;
  for (const rawLine of text.split(/\r\n|\r|\n/)) {
    const hash = rawLine.indexOf('#');
    const line = (hash === -1 ? rawLine : rawLine.slice(0, hash)).trim();
    const colon = line.indexOf(':');
    if (colon === -1) continue;
    const field = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    if (field === 'user-agent') {
      if (current === null || !lastWasAgent) {
        current = { agents: [], rules: [] };
        groups.push(current);
      }
      current.agents.push(value);
      lastWasAgent = true;
      continue;
    }
    if (field === 'allow' || field === 'disallow') {
      lastWasAgent = false;
      if (current === null || value === '') continue;
      current.rules.push({ allow: field === 'allow', path: value });
    }
    // Other fields neither open nor close a group.
  }
  return groups;
}

function productToken(agentLine: string): string {
  // "ExampleBot/1.0 (+https://...)" names the token "examplebot"; RFC 9309 matches case-insensitively.
  const match = /^[A-Za-z_-]+/.exec(agentLine.trim());
  return match === null ? agentLine.trim().toLowerCase() : match[0].toLowerCase();
}

/**
 * Picks the rules that apply to `agent` (RFC 9309 section 2.2.1): every group naming the agent's product
 * token, merged; if none, every `*` group, merged; if none, no rules.
 */
export function selectRobotsRules(
  groups: readonly RobotsGroup[],
  agent: string,
): { group: 'agent' | 'wildcard' | 'none'; rules: RobotsRule[] } {
  const token = agent.toLowerCase();
  const named = groups.filter((g) => g.agents.some((a) => a !== '*' && productToken(a) === token));
  if (named.length > 0) return { group: 'agent', rules: named.flatMap((g) => g.rules) };
  const wildcard = groups.filter((g) => g.agents.some((a) => a.trim() === '*'));
  if (wildcard.length > 0) return { group: 'wildcard', rules: wildcard.flatMap((g) => g.rules) };
  return { group: 'none', rules: [] };
}

const UNRESERVED = /[A-Za-z0-9\-._~]/;

/** @internal Puts a path or pattern in one form: escapes upper-cased, unreserved ones decoded, non-ASCII encoded. */
export function normalizeRobotsPath(path: string): string {
  let out = '';
  for (let i = 0; i < path.length; i++) {
    const c = path[i] as string;
    if (c === '%' && /^[0-9A-Fa-f]{2}$/.test(path.slice(i + 1, i + 3))) {
      const decoded = String.fromCharCode(parseInt(path.slice(i + 1, i + 3), 16));
      out += UNRESERVED.test(decoded) ? decoded : `%${path.slice(i + 1, i + 3).toUpperCase()}`;
      i += 2;
    } else if (c.charCodeAt(0) > 0x7e || c.charCodeAt(0) < 0x21) {
      const code = c.codePointAt(0) as number;
      const char = String.fromCodePoint(code);
      out += encodeURIComponent(char);
      if (char.length === 2) i++;
    } else {
      out += c;
    }
  }
  return out;
}

function matchesPattern(path: string, pattern: string): boolean {
  const anchored = pattern.endsWith('$');
  const body = anchored ? pattern.slice(0, -1) : pattern;
  const parts = body.split('*');
  let position = 0;
  for (let index = 0; index < parts.length; index++) {
    const part = parts[index] as string;
    if (index === 0) {
      if (!path.startsWith(part)) return false;
      position = part.length;
      continue;
    }
    if (index === parts.length - 1 && anchored) {
      // The last piece must end the path, at or after the current position.
      return path.length - part.length >= position && path.endsWith(part);
    }
    const found = path.indexOf(part, position);
    if (found === -1) return false;
    position = found + part.length;
  }
  return anchored ? position === path.length : true;
}

/**
 * Whether `path` (path and query) may be fetched under `rules`: the longest matching pattern wins, an
 * `allow` wins a tie, no match allows, and `/robots.txt` itself is always allowed. Patterns support
 * `*` (any run of characters) and a final `$` (end of path). Lengths are counted after normalization.
 *
 * @example
 * isPathAllowed([{ allow: false, path: '/' }, { allow: true, path: '/mcp' }], '/mcp') // true
 */
export function isPathAllowed(rules: readonly RobotsRule[], path: string): boolean {
  const target = normalizeRobotsPath(path === '' ? '/' : path);
  if (target === ROBOTS_PATH) return true;
  let best: { length: number; allow: boolean } | null = null;
  for (const rule of rules) {
    const pattern = normalizeRobotsPath(rule.path);
    if (!matchesPattern(target, pattern)) continue;
    if (
      best === null ||
      pattern.length > best.length ||
      (pattern.length === best.length && rule.allow && !best.allow)
    ) {
      best = { length: pattern.length, allow: rule.allow };
    }
  }
  return best === null || best.allow;
}

/** True when a rule set says `Disallow: /` (or a pattern that matches every path) to the agent. */
export function excludesOrigin(rules: readonly RobotsRule[]): boolean {
  return rules.some((rule) => !rule.allow && /^\/?\**$/.test(rule.path.trim()) && rule.path.trim() !== '');
}

/** Parses robots.txt text and applies it to one agent: the pure half of `readRobots`. */
export function robotsPolicyFor(
  text: string,
  agent: string,
  url = ROBOTS_PATH,
  httpStatus: number | null = null,
): RobotsPolicy {
  const selected = selectRobotsRules(parseRobots(text), agent);
  return {
    url,
    status: 'parsed',
    httpStatus,
    group: selected.group,
    rules: selected.rules,
    excludesOrigin: excludesOrigin(selected.rules),
    detail: null,
  };
}

function permissive(
  url: string,
  status: RobotsPolicy['status'],
  httpStatus: number | null,
  detail: string,
): RobotsPolicy {
  return { url, status, httpStatus, group: 'none', rules: [], excludesOrigin: false, detail };
}

/** @internal Checks an origin argument and returns it without a trailing slash. */
export function checkOrigin(origin: unknown): string {
  if (typeof origin !== 'string')
    throw new ProbeInputError(
      'invalid-origin',
      `origin must be a string, got ${describeType(origin, { article: true })}`,
    );
  let parsed: URL;
  try {
    parsed = new URL(origin);
  } catch {
    throw new ProbeInputError(
      'invalid-origin',
      `origin must be an absolute URL such as https://example.com, got ${origin.slice(0, 100)}`,
    );
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') {
    throw new ProbeInputError('invalid-origin', `origin must be http or https, got ${parsed.protocol}`);
  }
  return parsed.origin;
}

/**
 * Reads `<origin>/robots.txt` and applies it to `agent` (a product token such as `mcp-atlas-bot`). It
 * has 3 s in all, follows up to 5 redirects (each one guarded) and reads up to 500 KiB. No answer in
 * time, a 4xx, a 5xx or a refusal all mean allowed (`excludesOrigin: false`); the status says which.
 * An origin is excluded when the group that applies (the agent's own, else `*`) says `Disallow: /`.
 *
 * @example
 * const robots = await readRobots('https://example.com', 'mcp-atlas-bot', nodeNetwork);
 * if (robots.excludesOrigin) skip();
 */
export async function readRobots(origin: string, agent: string, options?: NetworkOptions): Promise<RobotsPolicy> {
  const base = checkOrigin(origin);
  if (typeof agent !== 'string' || !TOKEN.test(agent)) {
    throw new ProbeInputError(
      'invalid-agent-token',
      `agent must be a product token of letters, _ and -, got ${typeof agent === 'string' ? agent : describeType(agent, { article: true })}`,
    );
  }
  const network = resolveNetworkSettings(options);
  const url = `${base}${ROBOTS_PATH}`;
  const got = await getDocument(url, network, {
    timeoutMs: ROBOTS_TIMEOUT_MS,
    capBytes: ROBOTS_CAP_BYTES,
    maxRedirects: ROBOTS_MAX_REDIRECTS,
    accept: 'text/plain, */*;q=0.5',
  });
  if (!got.ok) {
    const status = got.reason.startsWith('guard:') ? 'refused' : 'unreachable';
    return permissive(url, status, null, `${got.reason}: ${got.message}`);
  }
  if (got.status >= 400 && got.status < 500)
    return permissive(url, 'not-found', got.status, `robots.txt answered ${got.status}`);
  if (got.status < 200 || got.status >= 300)
    return permissive(url, 'unreachable', got.status, `robots.txt answered ${got.status}`);
  // robots.txt is text for people too: a stray invalid byte is replaced, not fatal.
  const text = new TextDecoder('utf-8').decode(got.bytes);
  const policy = robotsPolicyFor(text, agent, url, got.status);
  return got.overCap ? { ...policy, detail: `only the first ${ROBOTS_CAP_BYTES} bytes were read` } : policy;
}
