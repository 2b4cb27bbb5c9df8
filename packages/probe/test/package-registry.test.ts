// Current versions from a real npm registry and a real PyPI JSON API on 127.0.0.1 (raw node:http speaking
// each format), scoped names encoded as npm expects, PyPI names in their normal form, and every way such a
// service can misbehave: a 500, a huge or endless body, text that is not JSON, the wrong shape, no answer.
import type http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ProbeInputError } from '../src/index.js';
import { createNodeHttpClient } from '../src/node/index.js';
import {
  DEFAULT_NPM_REGISTRY_URL,
  DEFAULT_PYPI_URL,
  PACKAGE_METADATA_CAP_BYTES,
  PACKAGE_METADATA_TIMEOUT_MS,
} from '../src/outside-constants.js';
import {
  isNpmPackageName,
  normalizePypiName,
  npmDocumentPath,
  readNpmPackage,
  readPypiPackage,
} from '../src/package-registry.js';
import { scaledClock } from './fixtures/env.js';
import { type LocalServer, sendJson, startRawServer } from './fixtures/servers.js';

type Route = (req: http.IncomingMessage, res: http.ServerResponse) => void;
const routes = new Map<string, Route>();
let registry: LocalServer;
const network = { allowPrivate: true, httpClient: createNodeHttpClient };

// The abbreviated npm document: name, modified, dist-tags and versions (trimmed here to what matters).
function npmDocument(name: string, latest: string): Record<string, unknown> {
  return {
    name,
    modified: '2026-10-01T00:00:00.000Z',
    'dist-tags': { latest, next: '9.9.9-beta.1' },
    versions: { [latest]: { name, version: latest, dist: { tarball: `https://example.invalid/${name}.tgz` } } },
  };
}

// PyPI's JSON API: info, last_serial, releases and urls (trimmed).
function pypiProject(name: string, version: string): Record<string, unknown> {
  return {
    info: { name, version, summary: 'a fixture project' },
    last_serial: 1,
    releases: { [version]: [] },
    urls: [],
  };
}

beforeAll(async () => {
  registry = await startRawServer((req, res) => {
    const route = routes.get(req.url ?? '');
    if (route === undefined) return sendJson(res, 404, { error: 'Not found' });
    route(req, res);
  });
  routes.set('/left-pad', (_req, res) => sendJson(res, 200, npmDocument('left-pad', '1.3.0')));
  routes.set('/@acme%2Fmcp-server', (_req, res) => sendJson(res, 200, npmDocument('@acme/mcp-server', '2.4.1')));
  routes.set('/pypi/mcp-server-fetch/json', (_req, res) =>
    sendJson(res, 200, pypiProject('mcp-server-fetch', '2025.4.7')),
  );
  routes.set('/pypi/zope-interface/json', (_req, res) => sendJson(res, 200, pypiProject('zope.interface', '7.2')));
});

afterAll(async () => {
  await registry.close();
});

describe('npm', () => {
  it('reads the latest dist-tag from the abbreviated document', async () => {
    const read = await readNpmPackage('left-pad', { ...network, registryUrl: registry.origin });
    expect(read).toEqual({
      ok: true,
      ecosystem: 'npm',
      name: 'left-pad',
      version: '1.3.0',
      url: `${registry.origin}/left-pad`,
    });
    expect(registry.requests.at(-1)?.headers.accept).toContain('application/vnd.npm.install-v1+json');
  });

  it('encodes a scoped name as @scope%2Fname', async () => {
    expect(npmDocumentPath('@acme/mcp-server')).toBe('@acme%2Fmcp-server');
    expect(npmDocumentPath('left-pad')).toBe('left-pad');
    const read = await readNpmPackage('@acme/mcp-server', { ...network, registryUrl: `${registry.origin}/` });
    expect(read).toMatchObject({ ok: true, name: '@acme/mcp-server', version: '2.4.1' });
    expect(registry.requests.at(-1)?.path).toBe('/@acme%2Fmcp-server');
  });

  it('refuses a name npm cannot hold before any request', async () => {
    const before = registry.requests.length;
    for (const name of ['', '../etc/passwd', 'two words', '@scope/', '@a/b/c', `x${'y'.repeat(214)}`]) {
      expect(isNpmPackageName(name), name).toBe(false);
      expect(await readNpmPackage(name, { ...network, registryUrl: registry.origin })).toMatchObject({
        ok: false,
        reason: 'invalid-name',
        url: null,
      });
    }
    expect(registry.requests.length).toBe(before);
    expect(isNpmPackageName('@Legacy/Capitals.ok_1~')).toBe(true);
  });

  it('says so when the package does not exist, has no latest tag, or the document is for another package', async () => {
    expect(await readNpmPackage('missing-pkg', { ...network, registryUrl: registry.origin })).toMatchObject({
      ok: false,
      reason: 'http-status',
      httpStatus: 404,
      message: 'npm has no package missing-pkg (HTTP 404)',
    });
    routes.set('/no-latest', (_req, res) => sendJson(res, 200, { name: 'no-latest', 'dist-tags': { next: '1.0.0' } }));
    expect(await readNpmPackage('no-latest', { ...network, registryUrl: registry.origin })).toMatchObject({
      ok: false,
      reason: 'no-version',
    });
    routes.set('/swapped', (_req, res) => sendJson(res, 200, npmDocument('other-pkg', '1.0.0')));
    expect(await readNpmPackage('swapped', { ...network, registryUrl: registry.origin })).toMatchObject({
      ok: false,
      reason: 'unexpected-answer',
    });
    routes.set('/no-tags', (_req, res) => sendJson(res, 200, { name: 'no-tags', versions: {} }));
    expect(await readNpmPackage('no-tags', { ...network, registryUrl: registry.origin })).toMatchObject({
      ok: false,
      reason: 'unexpected-answer',
    });
  });

  it('a 500, text that is not JSON', async () => {
    routes.set('/five-hundred', (_req, res) => sendJson(res, 500, { error: 'internal' }));
    routes.set('/html', (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<!doctype html><title>maintenance</title>');
    });
    expect(await readNpmPackage('five-hundred', { ...network, registryUrl: registry.origin })).toMatchObject({
      ok: false,
      reason: 'http-status',
      httpStatus: 500,
    });
    expect(await readNpmPackage('html', { ...network, registryUrl: registry.origin })).toMatchObject({
      ok: false,
      reason: 'not-json',
    });
  });

  it('an endless body is cut off at the 16 MiB cap', async () => {
    routes.set('/endless', (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      const block = Buffer.alloc(256 * 1024, 0x20);
      const pump = (): void => {
        while (!res.destroyed && res.write(block));
        if (!res.destroyed) res.once('drain', pump);
      };
      res.write('{"name":"endless",');
      pump();
    });
    const read = await readNpmPackage('endless', { ...network, registryUrl: registry.origin });
    expect(read).toMatchObject({
      ok: false,
      reason: 'too-large',
      message: `the answer is over ${PACKAGE_METADATA_CAP_BYTES} bytes`,
    });
  });

  it('no answer within 15 s (on a clock running 20 times faster)', async () => {
    routes.set('/slow', (_req, res) => {
      setTimeout(() => sendJson(res, 200, npmDocument('slow', '1.0.0')), 3_000).unref();
    });
    const clock = scaledClock(20);
    const read = await readNpmPackage('slow', { ...network, clock, registryUrl: registry.origin });
    expect(read).toMatchObject({ ok: false, reason: 'timeout' });
    expect(clock.requested).toContain(PACKAGE_METADATA_TIMEOUT_MS);
  });

  it('defaults to the public registry', () => {
    expect(DEFAULT_NPM_REGISTRY_URL).toBe('https://registry.npmjs.org');
  });
});

describe('PyPI', () => {
  it('reads info.version from the JSON API', async () => {
    const read = await readPypiPackage('mcp-server-fetch', { ...network, pypiUrl: registry.origin });
    expect(read).toEqual({
      ok: true,
      ecosystem: 'PyPI',
      name: 'mcp-server-fetch',
      version: '2025.4.7',
      url: `${registry.origin}/pypi/mcp-server-fetch/json`,
    });
  });

  it('asks for the PEP 503 normal form, and accepts the answer under its display name', async () => {
    expect(normalizePypiName('Zope.Interface')).toBe('zope-interface');
    expect(normalizePypiName('Foo__Bar.-baz')).toBe('foo-bar-baz');
    const read = await readPypiPackage('Zope.Interface', { ...network, pypiUrl: registry.origin });
    expect(read).toMatchObject({ ok: true, name: 'zope-interface', version: '7.2' });
    expect(registry.requests.at(-1)?.path).toBe('/pypi/zope-interface/json');
  });

  it('follows a redirect to the project’s canonical address, and refuses one that lands on another project', async () => {
    routes.set('/pypi/canon/json', (_req, res) => {
      res.writeHead(301, { location: '/pypi/Canon/json/' });
      res.end();
    });
    routes.set('/pypi/Canon/json/', (_req, res) => sendJson(res, 200, pypiProject('Canon', '3.0')));
    expect(await readPypiPackage('canon', { ...network, pypiUrl: registry.origin })).toMatchObject({
      ok: true,
      version: '3.0',
      url: `${registry.origin}/pypi/Canon/json/`,
    });
    routes.set('/pypi/renamed/json', (_req, res) => {
      res.writeHead(301, { location: '/pypi/mcp-server-fetch/json' });
      res.end();
    });
    expect(await readPypiPackage('renamed', { ...network, pypiUrl: registry.origin })).toMatchObject({
      ok: false,
      reason: 'unexpected-answer',
      message: 'the answer is for mcp-server-fetch, not renamed',
    });
  });

  it('refuses a name that is not a PEP 508 name before any request', async () => {
    const before = registry.requests.length;
    for (const name of ['', '-leading', 'trailing.', 'sp ace', '../x']) {
      expect(normalizePypiName(name), name).toBeNull();
      expect(await readPypiPackage(name, { ...network, pypiUrl: registry.origin })).toMatchObject({
        ok: false,
        reason: 'invalid-name',
        url: null,
      });
    }
    expect(registry.requests.length).toBe(before);
  });

  it('a missing project, a 500, the wrong shape, no version', async () => {
    expect(await readPypiPackage('not-there', { ...network, pypiUrl: registry.origin })).toMatchObject({
      ok: false,
      reason: 'http-status',
      httpStatus: 404,
      message: 'PyPI has no project not-there (HTTP 404)',
    });
    routes.set('/pypi/down/json', (_req, res) => sendJson(res, 500, { message: 'down' }));
    expect(await readPypiPackage('down', { ...network, pypiUrl: registry.origin })).toMatchObject({
      ok: false,
      reason: 'http-status',
      httpStatus: 500,
    });
    routes.set('/pypi/shape/json', (_req, res) => sendJson(res, 200, { releases: {} }));
    expect(await readPypiPackage('shape', { ...network, pypiUrl: registry.origin })).toMatchObject({
      ok: false,
      reason: 'unexpected-answer',
    });
    routes.set('/pypi/empty-version/json', (_req, res) => sendJson(res, 200, pypiProject('empty-version', '')));
    expect(await readPypiPackage('empty-version', { ...network, pypiUrl: registry.origin })).toMatchObject({
      ok: false,
      reason: 'no-version',
    });
  });

  it('defaults to pypi.org, and a base URL that is not a URL is the caller’s mistake', async () => {
    expect(DEFAULT_PYPI_URL).toBe('https://pypi.org');
    await expect(readPypiPackage('x', { ...network, pypiUrl: 'pypi.org' })).rejects.toBeInstanceOf(ProbeInputError);
    await expect(readNpmPackage(null as never, network)).rejects.toBeInstanceOf(ProbeInputError);
  });
});
