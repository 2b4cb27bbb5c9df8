import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPT_OUT_TOKEN_PATH, VERIFY_TOKEN_PATH } from '../src/constants.js';
import { ProbeInputError, readOwnerToken } from '../src/index.js';
import { createNodeHttpClient } from '../src/node/index.js';
import { type LocalServer, startRawServer } from './fixtures/servers.js';

const TOKEN = 'mcp-atlas-7f3c2a9b1e';
let server: LocalServer;
const files = new Map<string, { status: number; body: string }>();
const network = { allowPrivate: true, httpClient: createNodeHttpClient };

beforeAll(async () => {
  server = await startRawServer((req, res) => {
    const file = files.get(req.url ?? '');
    res.writeHead(file?.status ?? 404, { 'content-type': 'text/plain' });
    res.end(file?.body ?? 'not here');
  });
});

afterAll(async () => {
  await server.close();
});

describe('reading an owner’s token file', () => {
  it('matches when the token is one of the file’s lines', async () => {
    files.set(OPT_OUT_TOKEN_PATH, { status: 200, body: `# our opt-out\n  ${TOKEN}  \r\n` });
    const read = await readOwnerToken(server.origin, 'opt-out', TOKEN, network);
    expect(read).toMatchObject({
      url: `${server.origin}${OPT_OUT_TOKEN_PATH}`,
      httpStatus: 200,
      matches: true,
      detail: null,
    });
    expect(server.requests.at(-1)).toMatchObject({ method: 'GET', path: OPT_OUT_TOKEN_PATH });
  });

  it('does not match a token that is only part of a line, or a missing file', async () => {
    files.set(VERIFY_TOKEN_PATH, { status: 200, body: `prefix-${TOKEN}\n` });
    expect((await readOwnerToken(server.origin, 'verify', TOKEN, network)).matches).toBe(false);
    files.delete(VERIFY_TOKEN_PATH);
    expect(await readOwnerToken(server.origin, 'verify', TOKEN, network)).toMatchObject({
      matches: false,
      httpStatus: 404,
      detail: 'answered 404',
    });
  });

  it('never contacts a refused origin', async () => {
    const before = server.requests.length;
    const read = await readOwnerToken(server.origin, 'opt-out', TOKEN, { httpClient: createNodeHttpClient });
    expect(read.matches).toBe(false);
    expect(read.detail).toMatch(/^guard:/);
    expect(server.requests.length).toBe(before);
  });

  it('refuses an empty token or an unknown kind as a caller error', async () => {
    await expect(readOwnerToken(server.origin, 'opt-out', ' ', network)).rejects.toBeInstanceOf(ProbeInputError);
    await expect(readOwnerToken(server.origin, 'other' as never, TOKEN, network)).rejects.toBeInstanceOf(
      ProbeInputError,
    );
  });
});
