// Keys: generation, and raw bytes to and from the PEM forms node:crypto and OpenSSL read.
import { createPrivateKey, createPublicKey, generateKeyPairSync, sign, verify } from 'node:crypto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  generateKeyPair,
  HistoryError,
  privateKeyFromPem,
  privateKeyPem,
  publicKeyFor,
  publicKeyFromPem,
  publicKeyPem,
} from '../src/index.js';
import { hex, PRIVATE_KEY, PUBLIC_KEY, toHex } from './helpers.js';

// RFC 8410 §10.1 example public key, and the raw key it wraps.
const RFC8410_PEM =
  '-----BEGIN PUBLIC KEY-----\nMCowBQYDK2VwAyEAGb9ECWmEzf6FQbrBZ9w7lshQhqowtrbLDFw4rXAxZuE=\n-----END PUBLIC KEY-----\n';
const RFC8410_RAW = '19bf44096984cdfe8541bac167dc3b96c85086aa30b6b6cb0c5c38ad703166e1';

async function rejection(action: () => Promise<unknown>): Promise<HistoryError> {
  try {
    await action();
  } catch (error) {
    if (error instanceof HistoryError) return error;
    throw error;
  }
  throw new Error('expected a HistoryError');
}

function thrown(action: () => unknown): HistoryError {
  try {
    action();
  } catch (error) {
    if (error instanceof HistoryError) return error;
    throw error;
  }
  throw new Error('expected a HistoryError');
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('generateKeyPair', () => {
  it('gives a 32-byte private key and its 32-byte public key', async () => {
    const { privateKey, publicKey } = await generateKeyPair();
    expect(privateKey).toHaveLength(32);
    expect(publicKey).toEqual(publicKeyFor(privateKey));
  });

  it('gives a different key each time', async () => {
    const first = await generateKeyPair();
    const second = await generateKeyPair();
    expect(toHex(first.privateKey)).not.toBe(toHex(second.privateKey));
  });

  it('fails with NO_RANDOM_SOURCE where crypto.getRandomValues is missing', async () => {
    vi.stubGlobal('crypto', undefined);
    const error = await rejection(() => generateKeyPair());
    expect(error.code).toBe('no-random-source');
    expect(error.message).toBe('generating a key needs crypto.getRandomValues, which this runtime does not provide');
  });
});

describe('publicKeyPem', () => {
  it('writes the RFC 8410 example key exactly', () => {
    expect(publicKeyPem(hex(RFC8410_RAW))).toBe(RFC8410_PEM);
  });

  it('is accepted by node:crypto createPublicKey, which reads back the same raw key', () => {
    const key = createPublicKey(publicKeyPem(PUBLIC_KEY));
    expect(key.asymmetricKeyType).toBe('ed25519');
    expect(toHex(key.export({ format: 'der', type: 'spki' }).subarray(12))).toBe(toHex(PUBLIC_KEY));
  });

  it('refuses a key of the wrong length or type', () => {
    const short = thrown(() => publicKeyPem(new Uint8Array(31)));
    expect(short.code).toBe('invalid-key');
    expect(short.message).toBe('public key must be 32 bytes, got 31');
    expect(thrown(() => publicKeyPem(new Uint8Array(33))).message).toBe('public key must be 32 bytes, got 33');
    expect(thrown(() => publicKeyPem(RFC8410_RAW as unknown as Uint8Array)).message).toBe(
      `public key must be a Uint8Array of 32 bytes, got "${RFC8410_RAW}"`,
    );
  });
});

describe('publicKeyFromPem', () => {
  it('reads the RFC 8410 example and what node:crypto exports', () => {
    expect(toHex(publicKeyFromPem(RFC8410_PEM))).toBe(RFC8410_RAW);
    const { publicKey } = generateKeyPairSync('ed25519');
    const pem = publicKey.export({ format: 'pem', type: 'spki' }).toString();
    expect(toHex(publicKeyFromPem(pem))).toBe(toHex(publicKey.export({ format: 'der', type: 'spki' }).subarray(12)));
  });

  it('tolerates CRLF line ends and text around the block', () => {
    expect(toHex(publicKeyFromPem(`key for atlas\r\n${RFC8410_PEM.replaceAll('\n', '\r\n')}trailer`))).toBe(
      RFC8410_RAW,
    );
  });

  it.each([
    [
      'no block',
      'hello',
      'public key PEM must contain a "-----BEGIN PUBLIC KEY-----" … "-----END PUBLIC KEY-----" block',
    ],
    [
      'a private key block',
      privateKeyPem(PRIVATE_KEY),
      'public key PEM must contain a "-----BEGIN PUBLIC KEY-----" … "-----END PUBLIC KEY-----" block',
    ],
    [
      'a body that is not base64',
      '-----BEGIN PUBLIC KEY-----\nnot*base64\n-----END PUBLIC KEY-----',
      'public key PEM body is not valid base64',
    ],
    [
      'a P-256 (not Ed25519) key',
      generateKeyPairSync('ec', { namedCurve: 'P-256' }).publicKey.export({ format: 'pem', type: 'spki' }).toString(),
      'public key PEM does not hold an Ed25519 key: expected 44 DER bytes starting 302a300506032b6570032100',
    ],
  ])('refuses %s', (_name, pem, message) => {
    const error = thrown(() => publicKeyFromPem(pem));
    expect(error.code).toBe('invalid-pem');
    expect(error.message).toBe(message);
  });

  it('refuses a non-string', () => {
    expect(thrown(() => publicKeyFromPem(undefined as unknown as string)).message).toBe(
      'public key PEM must be a string, got undefined',
    );
  });
});

describe('privateKeyPem and privateKeyFromPem', () => {
  it('write PKCS#8 that node:crypto signs with, matching our public key', () => {
    const key = createPrivateKey(privateKeyPem(PRIVATE_KEY));
    const message = new Uint8Array([1, 2, 3]);
    expect(verify(null, message, createPublicKey(publicKeyPem(PUBLIC_KEY)), sign(null, message, key))).toBe(true);
  });

  it('read back what node:crypto exports and what we write', () => {
    const { privateKey, publicKey } = generateKeyPairSync('ed25519');
    const raw = privateKeyFromPem(privateKey.export({ format: 'pem', type: 'pkcs8' }).toString());
    expect(toHex(publicKeyFor(raw))).toBe(toHex(publicKey.export({ format: 'der', type: 'spki' }).subarray(12)));
    expect(privateKeyFromPem(privateKeyPem(PRIVATE_KEY))).toEqual(PRIVATE_KEY);
  });

  it('refuse a wrong-length private key and a public key block', () => {
    expect(thrown(() => privateKeyPem(new Uint8Array(64))).message).toBe('private key must be 32 bytes, got 64');
    expect(thrown(() => privateKeyFromPem(RFC8410_PEM)).message).toBe(
      'private key PEM must contain a "-----BEGIN PRIVATE KEY-----" … "-----END PRIVATE KEY-----" block',
    );
    expect(thrown(() => publicKeyFor(new Uint8Array(0))).message).toBe('private key must be 32 bytes, got 0');
  });
});
