// Which directories a command reads beside the registry, at which address and with which token: read from
// `--directories`, `--directory-urls` and `--directory-tokens` (or their MCP_ATLAS_ variables). A directory is
// read only when it is named: the default reads the official registry alone, and no other host is asked.
import { UsageError } from '../commands/shared.js';
import { DIRECTORY_SOURCES, type DirectorySetting, type DirectorySource } from '../discovery/sync-catalog.js';

const isDirectory = (name: string): name is DirectorySource => (DIRECTORY_SOURCES as readonly string[]).includes(name);

function namesOf(flag: string, raw: string): DirectorySource[] {
  const words = raw
    .split(',')
    .map((word) => word.trim().toLowerCase())
    .filter((word) => word !== '');
  if (words.length === 1 && words[0] === 'none') return [];
  if (words.length === 1 && words[0] === 'all') return [...DIRECTORY_SOURCES];
  for (const word of words)
    if (!isDirectory(word))
      throw new UsageError(
        `--${flag}: ${JSON.stringify(word.slice(0, 40))} is not one of all, none, ${DIRECTORY_SOURCES.join(', ')}`,
      );
  return [...new Set(words as DirectorySource[])];
}

// `name=value` pairs; a value is never echoed (a token may be one).
function pairsOf(flag: string, raw: string | null): Map<DirectorySource, string> {
  const pairs = new Map<DirectorySource, string>();
  if (raw === null) return pairs;
  for (const part of raw.split(',')) {
    if (part.trim() === '') continue;
    const at = part.indexOf('=');
    const name = (at === -1 ? part : part.slice(0, at)).trim().toLowerCase();
    const value = at === -1 ? '' : part.slice(at + 1).trim();
    if (!isDirectory(name))
      throw new UsageError(
        `--${flag}: each item is <directory>=<value>, with a directory of ${DIRECTORY_SOURCES.join(', ')}`,
      );
    if (value === '') throw new UsageError(`--${flag}: ${name} has no value after =`);
    pairs.set(name, value);
  }
  return pairs;
}

function checkedUrl(source: DirectorySource, url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.protocol === 'https:' || parsed.protocol === 'http:') return url;
  } catch {
    // Refused below, with the same message.
  }
  throw new UsageError(`--directory-urls: the URL of ${source} must be an absolute http or https URL`);
}

/**
 * The directories to read, from the three settings as given (null when absent).
 *
 * @example
 * directorySettingsOf({ directories: 'glama,smithery', urls: 'glama=http://127.0.0.1:9000', tokens: null });
 * // [{ source: 'glama', baseUrl: 'http://127.0.0.1:9000' }, { source: 'smithery' }]
 */
export function directorySettingsOf(given: {
  directories: string | null;
  urls: string | null;
  tokens: string | null;
}): DirectorySetting[] {
  const names = given.directories === null ? [] : namesOf('directories', given.directories);
  const urls = pairsOf('directory-urls', given.urls);
  const tokens = pairsOf('directory-tokens', given.tokens);
  for (const [source, token] of tokens)
    if (!/^[\x21-\x7e]+$/.test(token))
      throw new UsageError(`--directory-tokens: the token of ${source} must be visible ASCII`);
  return names.map((source) => {
    const url = urls.get(source);
    const token = tokens.get(source);
    return {
      source,
      ...(url === undefined ? {} : { baseUrl: checkedUrl(source, url) }),
      ...(token === undefined ? {} : { token }),
    };
  });
}
