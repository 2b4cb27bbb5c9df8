// Published test vectors: RFC 8032 §7.1 for Ed25519, the NIST FIPS 180-2 examples for SHA-256.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { derivePublicKey, signBytes, verifyBytes } from '../src/ed25519.js';
import { computeRoot, fileLine, publicKeyFor } from '../src/index.js';
import { nodeSha256 } from '../src/node/index.js';
import { hex, text, toHex } from './helpers.js';

const message1023 = readFileSync(new URL('./fixtures/rfc8032-test-1024-message.hex', import.meta.url), 'utf8').trim();

const RFC8032 = [
  {
    name: 'TEST 1 (empty message)',
    secret: '9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60',
    public: 'd75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a',
    message: '',
    signature:
      'e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b',
  },
  {
    name: 'TEST 2 (one byte)',
    secret: '4ccd089b28ff96da9db6c346ec114e0f5b8a319f35aba624da8cf6ed4fb8a6fb',
    public: '3d4017c3e843895a92b70aa74d1b7ebc9c982ccf2ec4968cc0cd55f12af4660c',
    message: '72',
    signature:
      '92a009a9f0d4cab8720e820b5f642540a2b27b5416503f8fb3762223ebdb69da085ac1e43e15996e458f3613d0f11d8c387b2eaeb4302aeeb00d291612bb0c00',
  },
  {
    name: 'TEST 3 (two bytes)',
    secret: 'c5aa8df43f9f837bedb7442f31dcb7b166d38535076f094b85ce3a2e0b4458f7',
    public: 'fc51cd8e6218a1a38da47ed00230f0580816ed13ba3303ac5deb911548908025',
    message: 'af82',
    signature:
      '6291d657deec24024827e69c3abe01a30ce548a284743a445e3680d7db5ac3ac18ff9b538d16f290ae67f760984dc6594a7c15e9716ed28dc027beceea1ec40a',
  },
  {
    name: 'TEST 1024 (1023 bytes)',
    secret: 'f5e5767cf153319517630f226876b86c8160cc583bc013744c6bf255f5cc0ee5',
    public: '278117fc144c72340f67d0f2316e8386ceffbf2b2428c9c51fef7c597f1d426e',
    message: message1023,
    signature:
      '0aab4c900501b3e24d7cdf4663326a3a87df5e4843b2cbdb67cbf6e460fec350aa5371b1508f9f4528ecea23c436d94b5e8fcd4f681e30a6ac00a9704a188a03',
  },
  {
    name: 'TEST SHA(abc) (64 bytes)',
    secret: '833fe62409237b9d62ec77587520911e9a759cec1d19755b7da901b96dca3d42',
    public: 'ec172b93ad5e563bf4932c70e1245034c35467ef2efd4d64ebf819683467e2bf',
    message:
      'ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f',
    signature:
      'dc2a4459e7369633a52b1bf277839a00201009a3efbf3ecb69bea2186c26b58909351fc9ac90b3ecfdfbc7c66431e0303dca179c138ac17ad9bef1177331a704',
  },
] as const;

describe('Ed25519 matches RFC 8032 section 7.1', () => {
  it('carries the 1023-byte message of TEST 1024 intact', () => {
    expect(message1023).toHaveLength(2046);
  });

  for (const vector of RFC8032) {
    describe(vector.name, () => {
      it('derives the published public key from the secret key', () => {
        expect(toHex(derivePublicKey(hex(vector.secret)))).toBe(vector.public);
        expect(toHex(publicKeyFor(hex(vector.secret)))).toBe(vector.public);
      });

      it('produces the published signature', () => {
        expect(toHex(signBytes(hex(vector.message), hex(vector.secret)))).toBe(vector.signature);
      });

      it('accepts the published signature and refuses it with one bit flipped', () => {
        const signature = hex(vector.signature);
        expect(verifyBytes(signature, hex(vector.message), hex(vector.public))).toBe(true);
        const flipped = signature.slice();
        flipped[0] = (flipped[0] ?? 0) ^ 1;
        expect(verifyBytes(flipped, hex(vector.message), hex(vector.public))).toBe(false);
      });
    });
  }

  it('refuses a signature made for another message', () => {
    const [first, second] = RFC8032;
    expect(verifyBytes(hex(first.signature), hex(second.message), hex(first.public))).toBe(false);
  });

  it('refuses a signature whose S is not reduced (S + L), as RFC 8032 strict verification requires', () => {
    const signature = hex(RFC8032[0].signature);
    // L = 2^252 + 27742317777372353535851937790883648493, little-endian, added to S.
    const order = hex('edd3f55c1a631258d69cf7a2def9de1400000000000000000000000000000010');
    let carry = 0;
    for (let i = 0; i < 32; i++) {
      const sum = (signature[32 + i] ?? 0) + (order[i] ?? 0) + carry;
      signature[32 + i] = sum & 0xff;
      carry = sum >> 8;
    }
    expect(verifyBytes(signature, new Uint8Array(0), hex(RFC8032[0].public))).toBe(false);
  });

  it('reports false, without throwing, for a public key that is not a curve point or a short signature', () => {
    const notAPoint = new Uint8Array(32).fill(0xff);
    expect(verifyBytes(hex(RFC8032[0].signature), new Uint8Array(0), notAPoint)).toBe(false);
    expect(verifyBytes(new Uint8Array(63), new Uint8Array(0), hex(RFC8032[0].public))).toBe(false);
  });
});

const NIST_SHA256 = [
  { name: 'empty string', input: '', digest: 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855' },
  {
    name: '"abc" (one block)',
    input: 'abc',
    digest: 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad',
  },
  {
    name: '448-bit message (two blocks)',
    input: 'abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq',
    digest: '248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1',
  },
  {
    name: '896-bit message',
    input:
      'abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu',
    digest: 'cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1',
  },
  {
    name: 'one million "a"',
    input: 'a'.repeat(1_000_000),
    digest: 'cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0',
  },
] as const;

describe('SHA-256 matches the NIST examples', () => {
  for (const vector of NIST_SHA256) {
    it(`hashes the ${vector.name} in a file line, with the default and the node:crypto hook`, () => {
      const bytes = text(vector.input);
      expect(fileLine('f.json', bytes)).toBe(`${vector.digest}  f.json`);
      expect(fileLine('f.json', bytes, { sha256: nodeSha256 })).toBe(`${vector.digest}  f.json`);
    });
  }

  it('hashes the root preimage as UTF-8: an empty day with no previous root is sha256("\\n")', () => {
    expect(computeRoot(null, [])).toBe('01ba4719c80b6fe911b091a7c05124b64eeece964e09c058ef8f9805daca546b');
  });
});
