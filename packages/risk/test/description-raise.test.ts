import { describe, expect, it } from 'vitest';
import { classifyTool, findRaisePhrase } from '../src/index.js';

const bare = { serverHasAnnotations: false };

describe('each raise wording lifts a tool to high risk', () => {
  it.each([
    ['moves-money', 'Moves money between two of your accounts.'],
    ['moves-money', 'Use this when moving funds to savings.'],
    ['charges-card', 'Charges a card on file for the order total.'],
    ['charges-card', 'Charges the customer credit card.'],
    ['deletes-permanently', 'Permanently deletes the selected page.'],
    ['deletes-permanently', 'Deletes the page permanently.'],
    ['deletes-permanently', 'Items in the bin are permanently deleted.'],
    ['deletes-records', 'Deletes the record with the given id.'],
    ['deletes-records', 'Deletes all records older than a date.'],
    ['deletes-records', 'Deletes a matching record.'],
    ['deletes-records', 'Deleting all stale rows keeps the table small.'],
    ['drops-table', 'Drops a table from the warehouse.'],
    ['drops-table', 'Drops the whole database.'],
    ['executes-code', 'Executes arbitrary JavaScript in the page.'],
    ['executes-code', 'Executes SQL against the project database.'],
    ['executes-code', 'Executes shell snippets on the host.'],
    ['executes-code', 'Executes code in a sandbox.'],
    ['runs-commands', 'Runs shell commands on the build machine.'],
    ['runs-commands', 'Runs arbitrary commands as the service user.'],
    ['runs-commands', 'Runs shell or arbitrary commands.'],
    ['runs-commands', 'Runs arbitrary or shell commands on the host.'],
    ['runs-commands', 'Running shell or arbitrary scripts is allowed.'],
    ['grants-access', 'Grants access to a folder.'],
    ['grants-access', 'Grants a user admin permissions.'],
    ['grants-access', 'Granting write permission to collaborators.'],
    ['changes-passwords', 'Changes passwords for a user.'],
    ['changes-passwords', "Changes the user's password."],
    ['changes-passwords', 'Resets the password of an account.'],
  ])('%s: %s', (id, description) => {
    expect(findRaisePhrase(description)?.id).toBe(id);
    const verdict = classifyTool({ name: 'do_thing', description }, bare);
    expect(verdict).toMatchObject({ level: 'high-risk', rule: 8, raised: true });
    expect(verdict.reason).toMatch(/Raised to high risk/);
  });
});

describe('negations and near misses do not raise', () => {
  it.each([
    'Does not delete the record; it only hides it.',
    'This tool never moves money.',
    'It cannot charge a card.',
    "It won't permanently delete anything.",
    'Works without granting access to anyone.',
    'Lists payments that moved money last week.',
    'Shows which cards were charged.',
    'Records are never deleted.',
    'Reads the table; nothing is dropped.',
    'Explains how to change a setting.',
    'Returns the records a user deleted.',
    'Drops noise from the signal.',
    'The runner executes tests only.',
    'Undeleted records are listed.',
    'Recharges a card reader battery.',
  ])('%s', (description) => {
    expect(findRaisePhrase(description)).toBeNull();
    expect(classifyTool({ name: 'do_thing', description }, bare).raised).toBe(false);
  });

  it('a plain wording later in the text still raises after a negated one', () => {
    expect(findRaisePhrase('Does not delete the record. Permanently deletes its archive.')?.id).toBe(
      'deletes-permanently',
    );
  });

  it('a negation in an earlier clause does not reach', () => {
    expect(findRaisePhrase('This cannot be undone. Deletes the record.')?.id).toBe('deletes-records');
  });

  // A comma ends a negation's reach: the negation belongs to the phrase before it.
  it.each([
    ['deletes-permanently', 'No undo, permanently deletes the project.'],
    ['deletes-records', 'Without confirmation, deletes all records in the table.'],
    ['executes-code', 'Never cached, executes arbitrary SQL against the database.'],
    ['runs-commands', 'Not sandboxed, runs shell commands.'],
    ['drops-table', 'Cannot be undone, drops the table.'],
  ])('a negation across a comma does not reach: %s (%s)', (id, description) => {
    expect(findRaisePhrase(description)?.id).toBe(id);
    expect(classifyTool({ name: 'do_thing', description }, bare)).toMatchObject({ level: 'high-risk', raised: true });
  });

  // The cost of the comma rule, kept on purpose: a negation cut off from its verb by an aside no longer cancels
  // it, so the tool errs toward high risk rather than toward a lower level.
  it('a negation split from its verb by a comma no longer cancels it', () => {
    expect(findRaisePhrase('Does not, under any circumstances, delete the record.')?.id).toBe('deletes-records');
  });

  it.each([
    'Does not permanently delete anything.',
    'Never executes arbitrary code.',
    'cannot drop a table',
    'It does not run shell commands.',
    'Lists the rows; it does not delete the record.',
    'Reads rows, and never deletes all records.',
    'Never runs shell or arbitrary commands.',
  ])('a negation in the same clause still cancels: %s', (description) => {
    expect(findRaisePhrase(description)).toBeNull();
    expect(classifyTool({ name: 'do_thing', description }, bare).raised).toBe(false);
  });
});

describe('when the raise applies', () => {
  it('never applies to a tool that says readOnlyHint: true', () => {
    const verdict = classifyTool(
      { name: 'get_x', description: 'Permanently deletes the page.', annotations: { readOnlyHint: true } },
      { serverHasAnnotations: true },
    );
    expect(verdict).toMatchObject({ level: 'read-only', rule: 3, raised: false });
  });
  it('lifts read-only (rule 6) tools', () => {
    const verdict = classifyTool(
      { name: 'get_x', description: 'Executes SQL you pass in.', annotations: {} },
      { serverHasAnnotations: true },
    );
    expect(verdict).toMatchObject({ level: 'high-risk', rule: 6, raised: true });
  });
  it('does not mark a tool that is already high risk as raised', () => {
    expect(classifyTool({ name: 'delete_x', description: 'Permanently deletes x.' }, bare)).toMatchObject({
      rule: 2,
      raised: false,
    });
  });
  it('ignores a description that is not a string', () => {
    const tool = { name: 'create_x', description: { text: 'Permanently deletes x' } } as never;
    expect(classifyTool(tool, bare)).toMatchObject({ level: 'changes-data', raised: false });
  });
});
