// Which names look secret: hand-computed cases for each way a name can match (a sensitive noun as a whole word, a
// secret word as a whole word, a secret word inside a run-together name) and for the names just beside them.
import { afterEach, describe, expect, it } from 'vitest';
import { looksSecretName, SECRET_NAME_WORDS } from '../src/index.js';
import { SENSITIVE_NOUN_RULES } from '../src/rules.js';

describe('SECRET_NAME_WORDS', () => {
  it('holds exactly the five words, read-only', () => {
    expect([...SECRET_NAME_WORDS]).toEqual(['token', 'key', 'secret', 'password', 'auth']);
    expect(SECRET_NAME_WORDS).toBeInstanceOf(Set);
    expect(() => (SECRET_NAME_WORDS as Set<string>).add('url')).toThrow(TypeError);
    expect(() => (SECRET_NAME_WORDS as Set<string>).delete('token')).toThrow(TypeError);
    expect(() => (SECRET_NAME_WORDS as Set<string>).clear()).toThrow(TypeError);
    expect(SECRET_NAME_WORDS.size).toBe(5);
  });
});

describe('looksSecretName', () => {
  afterEach(() => {
    // Undo the bypass below, so no other test sees a changed set.
    Set.prototype.delete.call(SECRET_NAME_WORDS, 'url');
  });

  it('matches a secret word that is a whole word of the name', () => {
    // GITHUB_TOKEN -> github, token; apiKey -> api, key; AUTH -> auth.
    expect(looksSecretName('GITHUB_TOKEN')).toBe(true);
    expect(looksSecretName('apiKey')).toBe(true);
    expect(looksSecretName('AUTH')).toBe(true);
    expect(looksSecretName('client_secret')).toBe(true);
    expect(looksSecretName('DB_PASSWORD')).toBe(true);
    expect(looksSecretName('--api-key')).toBe(true);
    expect(looksSecretName('x-auth-header')).toBe(true);
  });

  it('matches a secret word inside a run-together name, so author counts (it contains auth)', () => {
    expect(looksSecretName('ACCESSTOKEN')).toBe(true);
    expect(looksSecretName('privatekey')).toBe(true);
    expect(looksSecretName('OPENAI_APIKEY')).toBe(true);
    expect(looksSecretName('author')).toBe(true);
    expect(looksSecretName('AUTHOR_NAME')).toBe(true);
    // "keys" is not one of the words, but "key" is inside it.
    expect(looksSecretName('API_KEYS')).toBe(true);
  });

  it('matches a sensitive noun of rule 4 only as a whole word', () => {
    // None of these contains one of the five secret words: the noun alone decides.
    expect(looksSecretName('STRIPE_CREDENTIALS')).toBe(true);
    expect(looksSecretName('wallet')).toBe(true);
    expect(looksSecretName('SHELL')).toBe(true);
    expect(SENSITIVE_NOUN_RULES.nouns.has('credentialx')).toBe(false);
    expect(looksSecretName('CREDENTIALX')).toBe(false);
    expect(looksSecretName('walle')).toBe(false);
  });

  it('leaves names just short of a secret word alone', () => {
    expect(looksSecretName('API_URL')).toBe(false);
    expect(looksSecretName('AUT')).toBe(false);
    expect(looksSecretName('ke')).toBe(false);
    expect(looksSecretName('PASSWD')).toBe(false);
    expect(looksSecretName('tokn')).toBe(false);
    for (const name of ['HOME', 'PATH', 'MEMORY_FILE_PATH', 'lang', 'PORT', 'NODE_ENV', 'q'])
      expect(looksSecretName(name), name).toBe(false);
  });

  it('answers false for the empty name', () => {
    expect(looksSecretName('')).toBe(false);
  });

  it('reads a private copy of the words, so bypassing the frozen set changes no answer', () => {
    Set.prototype.add.call(SECRET_NAME_WORDS, 'url');
    expect(SECRET_NAME_WORDS.has('url')).toBe(true);
    expect(looksSecretName('API_URL')).toBe(false);
  });
});
