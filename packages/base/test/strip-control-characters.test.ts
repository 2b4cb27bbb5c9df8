import { describe, expect, it } from 'vitest';
import { stripControlCharacters } from '../src/index.js';

describe('stripControlCharacters', () => {
  it('takes out terminal escapes, bell, NUL, backspace, DEL and the C1 controls', () => {
    expect(stripControlCharacters('Reads\u0000 a\u0007 file\u0008.\u001b[2J\u007f\u0085\u009b')).toBe(
      'Reads a file.[2J',
    );
  });

  it('takes out every C0 control but tab, line feed and carriage return', () => {
    const c0 = Array.from({ length: 0x20 }, (_, code) => String.fromCharCode(code)).join('');
    expect(stripControlCharacters(c0)).toBe('\t\n\r');
  });

  it('takes out bidi embeddings, overrides and isolates, and keeps the direction marks', () => {
    const bidi = '\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069';
    expect(stripControlCharacters(`a${bidi}b`)).toBe('ab');
    expect(stripControlCharacters('\u05e9\u05dc\u05d5\u05dd\u200e \u200f')).toBe(
      '\u05e9\u05dc\u05d5\u05dd\u200e \u200f',
    );
  });

  it('gives ordinary text back unchanged, emoji, joiners and other scripts included', () => {
    for (const text of [
      '',
      'Lists open pull requests.\n\tRepository: owner/name.\r\n',
      'Recherche météo — 天気 — \u{1F469}\u200d\u{1F4BB} — ใช้\u200cงาน — \u00a0 \u2028',
    ])
      expect(stripControlCharacters(text)).toBe(text);
  });
});
