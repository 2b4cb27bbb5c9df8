import { describe, expect, it } from 'vitest';
import { splitText, stemWord, tokenize } from '../src/index.js';
import { splitLeadSentence, stemAll, synonymsOf } from '../src/text.js';

describe('splitText cuts names and prose into lower-cased words', () => {
  it.each([
    ['send_email', ['send', 'email']],
    ['list-open-issues', ['list', 'open', 'issues']],
    ['pages.createPage', ['pages', 'create', 'page']],
    ['repos/list:all', ['repos', 'list', 'all']],
    ['getHTTPStatus', ['get', 'http', 'status']],
    ['parseJSON', ['parse', 'json']],
    ['s3ListBuckets', ['s3', 'list', 'buckets']],
    ['ListObjectsV2', ['list', 'objects', 'v2']],
    ['Reads a file; returns its contents.', ['reads', 'a', 'file', 'returns', 'its', 'contents']],
  ])('%s', (input, expected) => {
    expect(splitText(input)).toEqual(expected);
  });

  it('keeps letters outside ASCII, including characters beyond the basic plane', () => {
    expect(splitText('Übersetze café naïve')).toEqual(['übersetze', 'café', 'naïve']);
    expect(splitText('tag 𝒜bc done')).toEqual(['tag', '𝒜bc', 'done']);
  });

  it('returns nothing for text without letters or digits', () => {
    expect(splitText('')).toEqual([]);
    expect(splitText(' -_./: ')).toEqual([]);
  });
});

describe('stemWord brings inflected forms together', () => {
  it.each([
    [['create', 'creates', 'created', 'creating'], 'creat'],
    [['send', 'sends', 'sending'], 'send'],
    [['query', 'queries', 'queried'], 'queri'],
    [['file', 'files'], 'fil'],
    [['search', 'searches', 'searched', 'searching'], 'search'],
    [['box', 'boxes'], 'box'],
    [['run', 'running'], 'run'],
    [['stop', 'stopped'], 'stop'],
    [['address', 'addresses'], 'address'],
    [['movie', 'movies'], 'movi'],
    [['list', 'lists', 'listed', 'listing'], 'list'],
    [['id', 'ids'], 'id'],
  ])('%j share %s', (words, stem) => {
    for (const word of words) expect(stemWord(word)).toBe(stem);
  });

  it('leaves exceptions, short words, digits and look-alikes alone', () => {
    expect(stemWord('news')).toBe('news');
    expect(stemWord('status')).toBe('status');
    expect(stemWord('string')).toBe('string');
    expect(stemWord('speed')).toBe('speed');
    expect(stemWord('go')).toBe('go');
    expect(stemWord('v2s')).toBe('v2s');
    expect(stemWord('class')).toBe('class');
    expect(stemWord('analysis')).toBe('analysis');
  });

  it('keeps a final y after a vowel (key, day) and undoubles only the listed consonants', () => {
    expect(stemWord('keys')).toBe('key');
    expect(stemWord('days')).toBe('day');
    expect(stemWord('calling')).toBe('call');
    expect(stemWord('adding')).toBe('add');
  });
});

describe('tokenize gives search terms', () => {
  it('drops stop words and one-letter words, stems the rest and keeps repeats', () => {
    expect(tokenize('Sends an email to the user, then sends a copy')).toEqual([
      'send',
      'email',
      'user',
      'send',
      'copi',
    ]);
    expect(tokenize('x y z')).toEqual([]);
    expect(tokenize('the of and')).toEqual([]);
  });

  it('stemAll keeps every word for the judge, stop words included', () => {
    expect(stemAll('Turn on the light')).toEqual(['turn', 'on', 'the', 'light']);
  });
});

describe('synonymsOf expands a stemmed query term one step', () => {
  it('finds the stemmed synonyms of a stemmed key and nothing for other words', () => {
    expect(synonymsOf('email')).toEqual(['mail', 'gmail', 'inbox']);
    expect(synonymsOf(stemWord('database'))).toEqual(['db', 'sql']);
    expect(synonymsOf('zebra')).toEqual([]);
  });
});

describe('splitLeadSentence cuts a description into what the tool does and the rest', () => {
  it('ends the first sentence at a full stop, question or exclamation mark followed by a space', () => {
    expect(splitLeadSentence('Lists files. Args: path.')).toEqual({ lead: 'Lists files.', rest: 'Args: path.' });
    expect(splitLeadSentence('Is it up? Checks a host!')).toEqual({ lead: 'Is it up?', rest: 'Checks a host!' });
    expect(splitLeadSentence('Sends mail! Then logs it.')).toEqual({ lead: 'Sends mail!', rest: 'Then logs it.' });
  });

  it('ends it at a line break too', () => {
    expect(splitLeadSentence('Reads a page\nUse the id from search.')).toEqual({
      lead: 'Reads a page',
      rest: 'Use the id from search.',
    });
  });

  it('does not end it inside "e.g.", a version number or a dotted name', () => {
    const text = 'Finds apps, e.g. next.js v1.2 apps. More here.';
    expect(splitLeadSentence(text)).toEqual({ lead: 'Finds apps, e.g. next.js v1.2 apps.', rest: 'More here.' });
  });

  it('keeps looking past an opening line without words, and takes a text without an end whole', () => {
    expect(splitLeadSentence('\n---\nCreates a task. Needs a list id.')).toEqual({
      lead: 'Creates a task.',
      rest: 'Needs a list id.',
    });
    expect(splitLeadSentence('  Creates a task  ')).toEqual({ lead: 'Creates a task', rest: '' });
    expect(splitLeadSentence('')).toEqual({ lead: '', rest: '' });
  });
});
