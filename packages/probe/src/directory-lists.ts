// Pure module: reading the two directories that are documents, not APIs. awesome-mcp-servers is a Markdown
// README (one `- [name](url) badges - description` line per server, under `###` category headings), and
// best-of-mcp-servers publishes CSV snapshots (a pandas export: a blank first header for the row index, then one
// column per project field). Both readers return what they could read and say when the document is not one.
import type { SourceEntry, SourceFact } from '@mcp-atlas/discovery';
import { AWESOME_LIST_BADGES, AWESOME_LIST_SERVERS_HEADING } from './directory-constants.js';

/** What a document reader found: entries, or why the document is not what the directory publishes. */
export type ListRead = { ok: true; entries: SourceEntry[] } | { ok: false; why: string };

/**
 * The rows of an RFC 4180 CSV text: fields split on commas, quoted fields may hold commas, line breaks and
 * doubled quotes. A quote left open at the end is an error (a cut file), returned as null.
 *
 * @example parseCsv('a,"b,c"\n1,"say ""hi"""\n') // [['a', 'b,c'], ['1', 'say "hi"']]
 */
export function parseCsv(text: string): string[][] | null {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (quoted) {
      if (char !== '"') field += char;
      else if (text[i + 1] === '"') {
        field += '"';
        i++;
      } else quoted = false;
    } else if (char === '"' && field === '') quoted = true;
    else if (char === ',') {
      row.push(field);
      field = '';
    } else if (char === '\n' || char === '\r') {
      if (char === '\r' && text[i + 1] === '\n') i++;
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
    } else field += char;
  }
  if (quoted) return null;
  if (field !== '' || row.length > 0) {
    row.push(field);
    rows.push(row);
  }
  return rows;
}

function numberOrNull(value: string | undefined): number | null {
  if (value === undefined || value.trim() === '') return null;
  const parsed = Number(value);
  return Number.isFinite(parsed) ? parsed : null;
}

/**
 * The projects of a best-of-mcp-servers snapshot. Each row needs a `name`; its repository is `github_id`
 * (`owner/repo`), else `github_url`. The facts kept are the project rank, contributor and star counts, and the
 * category. A file without a `name` column, or cut inside a quoted field, is not a snapshot.
 */
export function readBestOfSnapshot(text: string): ListRead {
  const rows = parseCsv(text);
  if (rows === null) return { ok: false, why: 'the snapshot ends inside a quoted field' };
  const [header, ...body] = rows;
  const column = new Map((header ?? []).map((name, index) => [name.trim(), index]));
  const nameAt = column.get('name');
  if (nameAt === undefined) return { ok: false, why: 'the snapshot has no name column' };
  const cell = (row: string[], name: string): string | undefined => {
    const at = column.get(name);
    const value = at === undefined ? undefined : row[at]?.trim();
    return value === '' ? undefined : value;
  };
  const entries: SourceEntry[] = [];
  for (const row of body) {
    const name = row[nameAt]?.trim();
    if (name === undefined || name === '') continue;
    const githubId = cell(row, 'github_id');
    const facts: Record<string, SourceFact> = {
      projectRank: numberOrNull(cell(row, 'projectrank')),
      contributors: numberOrNull(cell(row, 'contributor_count')),
      stars: numberOrNull(cell(row, 'star_count')),
      category: cell(row, 'category') ?? null,
    };
    entries.push({
      sourceId: githubId ?? name,
      name,
      description: cell(row, 'description') ?? null,
      repositoryUrl: githubId === undefined ? (cell(row, 'github_url') ?? null) : `https://github.com/${githubId}`,
      facts,
    });
  }
  return { ok: true, entries };
}

const ENTRY_LINE = /^\s*[-*]\s+\[([^\]]+)\]\(([^)\s]+)\)(.*)$/;
const BADGES = Object.entries(AWESOME_LIST_BADGES).sort(([a], [b]) => b.length - a.length);

/** A heading's words: anchors, other HTML tags and leading emoji dropped. */
function headingText(line: string): string {
  return line
    .replace(/^#+\s*/, '')
    .replace(/<[^>]*>/g, '')
    .replace(/^[^\p{L}\p{N}]+/u, '')
    .trim();
}

/** The facts an entry's badges stand for, and the description after the ` - ` that ends them. */
function badgesAndDescription(rest: string): { facts: Record<string, SourceFact>; description: string | null } {
  const dash = rest.search(/\s[-–—]\s/);
  const badgeText = dash === -1 ? rest : rest.slice(0, dash);
  const description = dash === -1 ? null : rest.slice(dash + 3).trim() || null;
  const facts: Record<string, SourceFact> = {};
  const scopes: string[] = [];
  const languages: string[] = [];
  let left = badgeText;
  for (const [badge, [fact, value]] of BADGES) {
    if (!left.includes(badge)) continue;
    left = left.split(badge).join(' ');
    if (fact === 'scope') scopes.push(value as string);
    else if (fact === 'language') languages.push(value as string);
    else facts[fact] = value;
  }
  if (languages.length > 0) facts.language = languages.sort().join(',');
  if (scopes.length > 0) facts.scope = scopes.sort().join(',');
  return { facts, description };
}

/**
 * The servers of the awesome-mcp-servers README: every list line that starts with a link, under a `###`
 * heading of the "Server Implementations" section; the heading is the entry's category. Its badges become facts
 * (language, scope, official). A README without that section is not the list.
 */
export function readAwesomeList(markdown: string): ListRead {
  const entries: SourceEntry[] = [];
  let inServers = false;
  let sawSection = false;
  let category: string | null = null;
  for (const line of markdown.split(/\r?\n/)) {
    if (/^##\s/.test(line)) {
      inServers = headingText(line) === AWESOME_LIST_SERVERS_HEADING;
      sawSection ||= inServers;
      category = null;
      continue;
    }
    if (!inServers) continue;
    if (/^###\s/.test(line)) {
      category = headingText(line) || null;
      continue;
    }
    const match = ENTRY_LINE.exec(line);
    if (match === null || category === null) continue;
    const [, label, url, rest] = match as unknown as [string, string, string, string];
    const { facts, description } = badgesAndDescription(rest);
    entries.push({
      sourceId: label.trim(),
      name: label.trim(),
      description,
      repositoryUrl: url,
      facts: { ...facts, category },
    });
  }
  if (!sawSection) return { ok: false, why: `the README has no "${AWESOME_LIST_SERVERS_HEADING}" section` };
  return { ok: true, entries };
}
