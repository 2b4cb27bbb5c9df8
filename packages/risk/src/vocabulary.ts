// Pure module: the word lists and description phrases behind the risk rules. They are data: every change
// here changes verdicts, so it needs a methodology version bump and a line in docs/methodology.md.

/** Methodology version of these rules; recorded with results so a changed rule is never silent. */
export const RISK_RULES_VERSION = '1.0.0';

/**
 * Verbs of tools that delete, pay, grant, deploy or run code. The verb decides before any annotation
 * (rule 2), which keeps the known false positive: `run_report` only reads, yet `run` makes it high risk.
 */
export const HIGH_RISK_VERBS: ReadonlySet<string> = new Set([
  // deleting and destroying
  'delete', 'del', 'remove', 'rm', 'destroy', 'drop', 'purge', 'wipe', 'erase', 'truncate', 'prune',
  'evict', 'terminate', 'kill', 'uninstall', 'trash', 'forget', 'obliterate', 'nuke',
  // money
  'pay', 'charge', 'refund', 'transfer', 'withdraw', 'payout', 'buy', 'sell', 'purchase', 'checkout', 'swap', 'trade', 'deposit',
  // granting and taking access
  'grant', 'revoke', 'authorize', 'impersonate', 'elevate', 'escalate',
  // deploying and releasing
  'deploy', 'redeploy', 'publish', 'rollback', 'install', 'provision', 'decommission', 'shutdown', 'reboot',
  // running code
  'run', 'rerun', 'exec', 'execute', 'eval', 'evaluate', 'invoke', 'spawn', 'sudo',
]);

/** Verbs of tools that create, change, send or move things without the reach of the high-risk verbs. */
export const CHANGING_VERBS: ReadonlySet<string> = new Set([
  // creating and editing
  'create', 'add', 'new', 'insert', 'append', 'update', 'upsert', 'edit', 'modify', 'change', 'set', 'unset',
  'put', 'patch', 'write', 'save', 'store', 'upload', 'import', 'replace', 'overwrite', 'increment',
  'decrement', 'remember', 'record', 'generate', 'make', 'build', 'compile', 'index', 'reindex', 'annotate',
  'transform', 'migrate', 'revert', 'undo', 'redo', 'init', 'initialize', 'setup', 'configure',
  // sending and sharing
  'post', 'send', 'submit', 'reply', 'comment', 'respond', 'notify', 'email', 'message', 'invite', 'share',
  'unshare', 'request', 'sign',
  // organising
  'assign', 'unassign', 'move', 'rename', 'copy', 'duplicate', 'clone', 'fork', 'merge', 'rebase', 'push',
  'commit', 'apply', 'tag', 'untag', 'label', 'link', 'unlink', 'attach', 'detach', 'mark', 'star', 'unstar',
  'pin', 'unpin', 'prioritize', 'reprioritize', 'transition', 'resolve', 'unresolve', 'archive', 'unarchive',
  'restore', 'approve', 'reject', 'deny', 'confirm', 'complete', 'finish', 'dismiss', 'release',
  // switching and running state
  'enable', 'disable', 'toggle', 'activate', 'deactivate', 'suspend', 'unsuspend', 'start', 'stop',
  'restart', 'pause', 'resume', 'cancel', 'close', 'open', 'reopen', 'reset', 'clear', 'flush', 'invalidate',
  'refresh', 'renew', 'rotate', 'sync', 'schedule', 'reschedule', 'trigger', 'dispatch', 'enqueue', 'retry',
  'scale', 'resize', 'mount', 'unmount', 'cordon', 'uncordon', 'drain', 'lock', 'unlock', 'connect',
  'disconnect', 'login', 'logout', 'register', 'unregister', 'subscribe', 'unsubscribe', 'join', 'leave',
  'book', 'order', 'handle', 'manage', 'process', 'train', 'tune', 'launch', 'upgrade', 'downgrade', 'backup',
  'vacuum', 'finalize', 'ingest', 'forward', 'switch', 'use', 'interact', 'unpublish',
  // social and moderation
  'follow', 'unfollow', 'like', 'unlike', 'react', 'vote', 'ban', 'unban', 'block', 'unblock', 'mute', 'unmute',
  // driving a browser or a screen
  'click', 'type', 'fill', 'select', 'press', 'drag', 'hover', 'scroll',
]);

/** Verbs of tools that look things up, compute or report, and change nothing. */
export const READING_VERBS: ReadonlySet<string> = new Set([
  // looking up
  'get', 'list', 'read', 'fetch', 'search', 'find', 'query', 'lookup', 'look', 'show', 'view', 'describe',
  'inspect', 'check', 'count', 'browse', 'retrieve', 'load', 'locate', 'discover', 'explore', 'examine',
  'peek', 'see', 'observe', 'visit', 'navigate', 'crawl', 'scrape', 'research', 'ls', 'cat', 'head', 'tail',
  'grep', 'whoami', 'top', 'stat', 'stats', 'is', 'has', 'whois', 'healthcheck', 'autocomplete', 'enrich',
  'aggregate', 'visualize', 'visualise', 'plot', 'chart', 'scan', 'rerank',
  // working things out
  'analyze', 'analyse', 'explain', 'summarize', 'summarise', 'compare', 'diff', 'validate', 'verify', 'test',
  'calculate', 'compute', 'estimate', 'measure', 'convert', 'translate', 'parse', 'extract', 'detect',
  'identify', 'classify', 'predict', 'score', 'rank', 'sort', 'filter', 'match', 'forecast', 'geocode',
  'transcribe', 'understand', 'think', 'suggest', 'recommend', 'ask', 'answer', 'tell',
  // watching and reporting
  'audit', 'trace', 'profile', 'lint', 'debug', 'diagnose', 'troubleshoot', 'monitor', 'watch', 'poll',
  'ping', 'echo', 'wait', 'sleep', 'preview', 'render', 'print', 'screenshot', 'snapshot', 'capture',
  'sample', 'download', 'export',
]);

/** Every verb the classifier knows; `toolVerb` reads the last word of a name only when the first is not one. */
export const KNOWN_VERBS: ReadonlySet<string> = new Set([...HIGH_RISK_VERBS, ...CHANGING_VERBS, ...READING_VERBS]);

/** Which list a verb belongs to. */
export type VerbClass = 'high-risk' | 'changing' | 'reading';

/** Each known verb and its list, for a single lookup per tool. */
export const VERB_CLASSES: ReadonlyMap<string, VerbClass> = new Map<string, VerbClass>([
  ...[...READING_VERBS].map((verb) => [verb, 'reading'] as const),
  ...[...CHANGING_VERBS].map((verb) => [verb, 'changing'] as const),
  ...[...HIGH_RISK_VERBS].map((verb) => [verb, 'high-risk'] as const),
]);

/**
 * Nouns that make a tool high risk when its verb is not a reading verb (rule 4). Plurals count; the two-word
 * `api key` is matched as two adjacent words (and `apikey` as one).
 */
export const SENSITIVE_NOUNS: ReadonlySet<string> = new Set([
  'payment', 'payments', 'payout', 'payouts', 'refund', 'refunds', 'transfer', 'transfers', 'password',
  'passwords', 'credential', 'credentials', 'secret', 'secrets', 'apikey', 'apikeys', 'shell', 'shells', 'sudo',
  'terminal', 'terminals', 'wallet', 'wallets',
]);

/** The two-word sensitive nouns, as [first word, accepted second words]. */
export const SENSITIVE_NOUN_PAIRS: readonly (readonly [string, ReadonlySet<string>])[] = [
  ['api', new Set(['key', 'keys'])],
];

/** A plain wording in a description that raises a tool to high risk. */
export interface RaisePhrase {
  /** Stable id, used in reasons and tests. */
  readonly id: string;
  /** What the wording says, for people. */
  readonly says: string;
  /** Case-insensitive, word-bounded pattern with light inflection. */
  readonly pattern: RegExp;
  /**
   * Lower-case word beginnings at which every match of `pattern` starts. One scan finds them in a
   * description, and the pattern is tried only there, which keeps long descriptions cheap.
   */
  readonly stems: readonly string[];
}

// A few words may sit between the verb and its object ("deletes the selected records").
const GAP = String.raw`(?:[\w'-]+\s+){0,2}?`;

/**
 * Wordings that raise a tool to high risk unless the server marked it read-only. Each pattern is bounded
 * by word edges and takes light inflection (deletes, deleting); a negation just before it cancels it.
 */
export const RAISE_PHRASES: readonly RaisePhrase[] = [
  {
    id: 'moves-money',
    stems: ['mov'],
    says: 'moves money',
    pattern: new RegExp(String.raw`\b(?:move|moves|moving)\s+${GAP}(?:money|funds)\b`, 'i'),
  },
  {
    id: 'charges-card',
    stems: ['charg'],
    says: 'charges a card',
    pattern: new RegExp(String.raw`\b(?:charge|charges|charging)\s+${GAP}(?:credit\s+|debit\s+)?cards?\b`, 'i'),
  },
  {
    id: 'deletes-permanently',
    stems: ['permanently', 'delet', 'remov', 'eras'],
    says: 'deletes permanently',
    pattern: new RegExp(
      String.raw`\b(?:permanently\s+(?:delete|deletes|deleted|deleting|remove|removes|removed|removing|erase|erases|erased|destroy|destroys|destroyed)\b|(?:delete|deletes|deleted|deleting|remove|removes|removed|removing|erase|erases|erased)\s+(?:[\w'-]+\s+){0,3}?permanently\b)`,
      'i',
    ),
  },
  {
    id: 'deletes-records',
    stems: ['delet'],
    says: 'deletes the, all or a record',
    pattern: new RegExp(
      String.raw`\b(?:delete|deletes|deleting)\s+(?:the|all|a|an|any|every)\s+${GAP}(?:records?|rows?|entries|entry)\b`,
      'i',
    ),
  },
  {
    id: 'drops-table',
    stems: ['drop'],
    says: 'drops a table or database',
    pattern: new RegExp(
      String.raw`\b(?:drop|drops|dropping)\s+(?:the\s+|a\s+|an\s+|any\s+)?${GAP}(?:tables?|databases?)\b`,
      'i',
    ),
  },
  {
    id: 'executes-code',
    stems: ['execut'],
    says: 'executes arbitrary, shell or SQL commands or code',
    pattern: new RegExp(
      String.raw`\b(?:execute|executes|executing)\s+(?:an?\s+|any\s+|the\s+|raw\s+)?(?:arbitrary|shell|sql|code)\b`,
      'i',
    ),
  },
  {
    id: 'runs-commands',
    stems: ['run'],
    says: 'runs shell or arbitrary commands',
    pattern: new RegExp(
      String.raw`\b(?:run|runs|running)\s+(?:an?\s+|any\s+)?(?:arbitrary|shell)\s+(?:[\w'-]+\s+)?(?:commands?|code|scripts?)\b`,
      'i',
    ),
  },
  {
    id: 'grants-access',
    stems: ['grant'],
    says: 'grants access or permissions',
    pattern: new RegExp(
      String.raw`\b(?:grant|grants|granting)\s+(?:[\w'-]+\s+){0,3}?(?:access|permissions?|privileges?)\b`,
      'i',
    ),
  },
  {
    id: 'changes-passwords',
    stems: ['chang', 'reset'],
    says: 'changes passwords',
    pattern: new RegExp(
      String.raw`\b(?:change|changes|changing|reset|resets|resetting)\s+${GAP}passwords?\b`,
      'i',
    ),
  },
];

/** Words that, just before a raise phrase in the same clause, cancel it ("does not delete"). */
export const NEGATION_WORDS: ReadonlySet<string> = new Set([
  'not', 'never', 'no', 'cannot', "can't", "won't", "doesn't", "don't", "didn't", "isn't", "aren't", 'without',
  'nor', 'neither', "shouldn't", "mustn't", 'doesnt', 'dont', 'cant', 'wont',
]);

/** How many words before a raise phrase are searched for a negation. */
export const NEGATION_WINDOW_WORDS = 3;
