import { describe, expect, it } from 'vitest';
import { classifyTool, classifyTools, RiskOptionsError, type ToolLike } from '../src/index.js';

const annotated = { serverHasAnnotations: true };
const bare = { serverHasAnnotations: false };

function verdictOf(tool: ToolLike, context = annotated) {
  return classifyTool(tool, context);
}

describe('rule 1: destructiveHint without readOnlyHint', () => {
  it('is high risk even with a reading verb', () => {
    expect(verdictOf({ name: 'get_thing', annotations: { destructiveHint: true } })).toMatchObject({
      level: 'high-risk',
      rule: 1,
    });
  });
  it('does not apply when readOnlyHint is also true', () => {
    expect(verdictOf({ name: 'get_thing', annotations: { destructiveHint: true, readOnlyHint: true } })).toMatchObject({
      level: 'read-only',
      rule: 3,
    });
  });
  it('needs the boolean true, not a truthy string', () => {
    const tool = { name: 'get_thing', annotations: { destructiveHint: 'true' } } as unknown as ToolLike;
    expect(verdictOf(tool)).toMatchObject({ level: 'read-only', rule: 6 });
  });
});

describe('rule 2: a high-risk verb', () => {
  it('beats readOnlyHint: true (the run_report false positive is kept)', () => {
    expect(verdictOf({ name: 'run_report', annotations: { readOnlyHint: true } })).toMatchObject({
      level: 'high-risk',
      rule: 2,
      verb: 'run',
    });
  });
  it.each(['delete_page', 'pages_delete', 'pay_invoice', 'grant_role', 'deploy_site', 'execute_sql', 'evaluateScript'])(
    '%s is high risk',
    (name) => {
      expect(verdictOf({ name }, bare)).toMatchObject({ level: 'high-risk', rule: 2 });
    },
  );
});

describe('rule 3: readOnlyHint: true', () => {
  it('makes a changing verb read-only', () => {
    expect(verdictOf({ name: 'update_cache', annotations: { readOnlyHint: true } })).toMatchObject({
      level: 'read-only',
      rule: 3,
    });
  });
  it('beats a sensitive noun', () => {
    expect(verdictOf({ name: 'rotate_password', annotations: { readOnlyHint: true } })).toMatchObject({
      level: 'read-only',
      rule: 3,
    });
  });
});

describe('rule 4: a sensitive noun with a verb that is not a reading verb', () => {
  it.each([
    ['create_payment', 'payment'],
    ['payouts_schedule', 'payouts'],
    ['update_password', 'password'],
    ['store_credentials', 'credentials'],
    ['set_secret', 'secret'],
    ['rotate_api_key', 'api key'],
    ['rotateApiKeys', 'api keys'],
    ['open_terminal', 'terminal'],
    ['wallet_topup', 'wallet'],
    ['shell', 'shell'],
    ['enable_sudo', 'sudo'],
    ['transfers', 'transfers'],
    ['refunds', 'refunds'],
  ])('%s is high risk for "%s"', (name, noun) => {
    const verdict = verdictOf({ name }, bare);
    expect(verdict).toMatchObject({ level: 'high-risk', rule: 4 });
    expect(verdict.reason).toContain(`"${noun}"`);
  });
  it('does not apply to a reading verb', () => {
    expect(verdictOf({ name: 'get_secret', annotations: {} })).toMatchObject({ level: 'read-only', rule: 6 });
    expect(verdictOf({ name: 'list_payments' }, bare)).toMatchObject({ level: 'changes-data', rule: 7 });
  });
  it('needs "api" and "key" next to each other', () => {
    expect(verdictOf({ name: 'api_usage_key_stats' }, bare).rule).not.toBe(4);
  });
  it('comes before rule 5', () => {
    expect(verdictOf({ name: 'update_wallet' }, bare).rule).toBe(4);
  });
});

// The second-word verb is our fallback, not the seed's: for the seed these names have no verb, so a sensitive
// noun in them makes the tool high-risk, and the fallback must not lower that.
describe('rule 4: a reading verb found only as the second word does not excuse a sensitive noun', () => {
  it.each([
    ['vault_read_secret', { annotations: {} }, 'read', 'secret'],
    ['acme_get_api_key', { annotations: { openWorldHint: false } }, 'get', 'api key'],
    ['hub_list_credentials', {}, 'list', 'credentials'],
    ['vaultReadPasswords', { annotations: {} }, 'read', 'passwords'],
  ])('%s is high risk (rule 4)', (name, extra, verb, noun) => {
    const verdict = classifyTools([{ name, ...extra }])[0];
    expect(verdict).toMatchObject({ level: 'high-risk', rule: 4, verb });
    expect(verdict?.reason).toBe(
      `Its name mentions "${noun}", and its reading verb "${verb}" is only the second word, which does not excuse it.`,
    );
  });
  it('a first- or last-word reading verb still excuses the noun', () => {
    expect(verdictOf({ name: 'get_secret', annotations: {} })).toMatchObject({ level: 'read-only', rule: 6 });
    expect(verdictOf({ name: 'get_vault_secret', annotations: {} })).toMatchObject({ level: 'read-only', rule: 6 });
    expect(verdictOf({ name: 'secret_read', annotations: {} })).toMatchObject({ level: 'read-only', rule: 6 });
    expect(verdictOf({ name: 'vault_secret_read', annotations: {} })).toMatchObject({ level: 'read-only', rule: 6 });
    expect(verdictOf({ name: 'get_secret' }, bare)).toMatchObject({ level: 'changes-data', rule: 7 });
  });
  it('a second-word reading verb without a sensitive noun still reads (rules 6 and 7)', () => {
    expect(verdictOf({ name: 'vault_read_note', annotations: {} })).toMatchObject({
      level: 'read-only',
      rule: 6,
      verb: 'read',
    });
    expect(verdictOf({ name: 'vault_read_note' }, bare)).toMatchObject({
      level: 'changes-data',
      rule: 7,
      verb: 'read',
    });
  });
  it('a second-word verb still decides rules 2 and 5, and rules 1 and 3 still come first', () => {
    expect(verdictOf({ name: 'zpa_delete_credential', annotations: {} })).toMatchObject({
      level: 'high-risk',
      rule: 2,
    });
    expect(verdictOf({ name: 'zpa_update_note', annotations: {} })).toMatchObject({ level: 'changes-data', rule: 5 });
    expect(verdictOf({ name: 'vault_read_secret', annotations: { readOnlyHint: true } })).toMatchObject({
      level: 'read-only',
      rule: 3,
    });
    expect(verdictOf({ name: 'vault_read_secret', annotations: { destructiveHint: true } })).toMatchObject({
      level: 'high-risk',
      rule: 1,
    });
  });
  it('a changing second-word verb keeps the plain rule-4 reason', () => {
    expect(verdictOf({ name: 'vault_update_secret' }, bare)).toMatchObject({
      level: 'high-risk',
      rule: 4,
      reason: 'Its name mentions "secret" and its verb is not a reading verb.',
    });
  });
});

describe('rule 5: a changing verb', () => {
  it.each(['create_issue', 'issues_update', 'sendMessage', 'archive_project'])('%s changes data', (name) => {
    expect(verdictOf({ name }, bare)).toMatchObject({ level: 'changes-data', rule: 5 });
  });
  it('comes before an annotation-based read', () => {
    expect(verdictOf({ name: 'create_issue', annotations: {} })).toMatchObject({ level: 'changes-data', rule: 5 });
  });
});

describe('rule 6: a reading verb with annotations that do not deny read-only', () => {
  it('is read-only with an empty annotations object', () => {
    expect(verdictOf({ name: 'list_issues', annotations: {} })).toMatchObject({ level: 'read-only', rule: 6 });
  });
  it('is read-only with unrelated hints', () => {
    expect(verdictOf({ name: 'search_docs', annotations: { openWorldHint: true } })).toMatchObject({
      level: 'read-only',
      rule: 6,
    });
  });
  it('does not apply when readOnlyHint is false (rule 8 instead)', () => {
    expect(verdictOf({ name: 'list_issues', annotations: { readOnlyHint: false } })).toMatchObject({
      level: 'changes-data',
      rule: 8,
    });
  });
});

describe('rule 7: a reading verb on a server with no annotations', () => {
  it('changes data until someone checks it', () => {
    expect(verdictOf({ name: 'list_issues' }, bare)).toMatchObject({ level: 'changes-data', rule: 7 });
  });
  it('does not apply when the server publishes annotations elsewhere (rule 8 instead)', () => {
    const verdict = verdictOf({ name: 'list_issues' }, annotated);
    expect(verdict).toMatchObject({ level: 'changes-data', rule: 8 });
    expect(verdict.reason).toMatch(/no annotations while others/);
  });
});

describe('rule 8: nothing clear', () => {
  it('covers names without a known verb', () => {
    expect(verdictOf({ name: 'weather' }, bare)).toMatchObject({ level: 'changes-data', rule: 8, verb: null });
  });
  it('covers readOnlyHint: false with a reading verb', () => {
    expect(verdictOf({ name: 'get_x', annotations: { readOnlyHint: false } }).reason).toMatch(/readOnlyHint: false/);
  });
});

describe('classifyTools', () => {
  it('counts the server as annotated when any tool carries annotations', () => {
    const verdicts = classifyTools([{ name: 'list_a' }, { name: 'list_b', annotations: {} }]);
    expect(verdicts.map((v) => v.rule)).toEqual([8, 6]);
  });
  it('counts the server as bare when no tool carries an annotations object', () => {
    const verdicts = classifyTools([{ name: 'list_a' }, { name: 'list_b', annotations: null }]);
    expect(verdicts.map((v) => v.rule)).toEqual([7, 7]);
  });
  it('keeps the order of the input', () => {
    expect(classifyTools([{ name: 'delete_a' }, { name: 'create_b' }]).map((v) => v.verb)).toEqual([
      'delete',
      'create',
    ]);
  });
  it('rejects a value that is not an array with a RiskOptionsError coded tools-not-array', () => {
    let caught: unknown;
    try {
      classifyTools({} as unknown as unknown[]);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(RiskOptionsError);
    expect(caught).not.toBeInstanceOf(TypeError);
    expect(caught).toMatchObject({ code: 'tools-not-array', message: 'classifyTools expects an array of tools' });
  });
});
