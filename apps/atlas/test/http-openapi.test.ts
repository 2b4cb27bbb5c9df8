import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHttpApp } from '../src/http/app.js';
import { createOpenApiDocument } from '../src/http/openapi.js';
import { createMemoryStorage } from '../src/storage/memory-storage.js';
import { getJsonAt, postJson, type RunningFixture, startFixture, TODAY } from './fixtures/http-atlas.js';

let f: RunningFixture;
let doc: any;
beforeAll(async () => {
  f = await startFixture();
  doc = (await getJsonAt(`${f.base}/api/openapi.json`)).body;
});
afterAll(async () => {
  await f.close();
});

const METHODS = ['get', 'post', 'put', 'delete', 'patch', 'head', 'options'];

function operations(document: any): { path: string; method: string; op: any }[] {
  return Object.entries(document.paths as Record<string, Record<string, unknown>>).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([method]) => METHODS.includes(method))
      .map(([method, op]) => ({ path, method, op })),
  );
}

function refsIn(value: unknown, out: string[] = []): string[] {
  if (Array.isArray(value)) for (const item of value) refsIn(item, out);
  else if (value !== null && typeof value === 'object') {
    for (const [key, inner] of Object.entries(value)) {
      if (key === '$ref' && typeof inner === 'string') out.push(inner);
      else refsIn(inner, out);
    }
  }
  return out;
}

const validator = new AjvJsonSchemaValidator();

/** Checks a real answer against the schema the document gives for that path, method and status. */
function expectDocumented(path: string, method: string, status: number, body: unknown): void {
  const schema = doc.paths[path]?.[method]?.responses?.[String(status)]?.content?.['application/json']?.schema;
  expect(schema, `${method} ${path} documents ${status}`).toBeDefined();
  const check = validator.getValidator({ allOf: [schema], components: doc.components } as never)(body);
  expect(check.errorMessage ?? 'valid').toBe('valid');
}

describe('GET /api/openapi.json', () => {
  it('is an OpenAPI 3.1 document with a title and the app version', () => {
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info).toMatchObject({ title: 'mcp-atlas', version: '0.1.0-test' });
  });

  it('lists every route the app serves, and nothing it does not', () => {
    const app = createHttpApp({
      getView: () => f.view,
      storage: createMemoryStorage(),
      publicKey: f.keys.publicKey,
      now: () => new Date(),
      methodologyVersion: '1.0.0',
      botUserAgent: 'bot',
      validateLicense: async () => false,
      reporterSecret: new Uint8Array(32),
    });
    const served = new Set(
      app.routes
        .filter((route) => route.method !== 'ALL')
        .map((route) => `${route.method.toLowerCase()} ${route.path.replace(/:(\w+)/g, '{$1}')}`),
    );
    const documented = new Set(operations(doc).map(({ path, method }) => `${method} ${path}`));
    expect([...documented].sort()).toEqual([...served].sort());
    for (const route of [
      'get /api/servers',
      'get /api/servers/{id}',
      'get /api/toolsearch',
      'get /api/route',
      'post /api/reports',
      'post /api/sensors',
      'get /api/maps',
      'get /.well-known/mcp-atlas.json',
      'get /api/openapi.json',
      'post /mcp',
    ]) {
      expect(documented.has(route), route).toBe(true);
    }
  });

  it('gives every operation a unique operationId and at least one response', () => {
    const ids = operations(doc).map(({ op }) => op.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    for (const { op } of operations(doc)) expect(Object.keys(op.responses).length).toBeGreaterThan(0);
  });

  it('resolves every $ref to a component schema', () => {
    const refs = refsIn(doc);
    expect(refs.length).toBeGreaterThan(10);
    for (const ref of refs) {
      expect(ref.startsWith('#/components/schemas/'), ref).toBe(true);
      expect(doc.components.schemas[ref.slice('#/components/schemas/'.length)], ref).toBeDefined();
    }
  });

  it('describes every parameter with a name, a place and a schema; path parameters are required', () => {
    for (const { path, op } of operations(doc)) {
      for (const parameter of op.parameters ?? []) {
        expect(typeof parameter.name).toBe('string');
        expect(['query', 'path', 'header']).toContain(parameter.in);
        expect(typeof parameter.schema).toBe('object');
        if (parameter.in === 'path') {
          expect(path).toContain(`{${parameter.name}}`);
          expect(parameter.required).toBe(true);
        }
      }
    }
    const search = doc.paths['/api/toolsearch'].get.parameters;
    expect(search.map((p: any) => [p.name, p.required])).toEqual([
      ['q', true],
      ['risk', false],
      ['limit', false],
    ]);
  });

  it('documents the report body with exactly the fixed fields, and no others allowed', () => {
    const body = doc.components.schemas.ReportBody;
    expect(Object.keys(body.properties).sort()).toEqual(
      ['charged', 'matched', 'ms', 'ok', 'reason', 'resultTokens', 'server', 'surprise', 'tool', 'toolsHash'].sort(),
    );
    expect([...body.required].sort()).toEqual(['ok', 'server', 'tool']);
    expect(body.additionalProperties).toBe(false);
    expect(doc.components.schemas.SensorBatchBody.properties.outcomes.maxItems).toBe(100);
  });

  it('is the same document the module builds, and carries no $id or $schema inside components', () => {
    expect(doc).toEqual(createOpenApiDocument('0.1.0-test'));
    for (const schema of Object.values(doc.components.schemas) as any[]) {
      expect(schema.$id).toBeUndefined();
      expect(schema.$schema).toBeUndefined();
    }
  });
});

describe('the answers match the documented schemas', () => {
  it.each([
    ['/api/servers', '/api/servers', 200],
    ['/api/servers/{id}', '/api/servers/ticket-yard', 200],
    ['/api/servers/{id}', '/api/servers/nobody-here', 404],
    ['/api/toolsearch', '/api/toolsearch?q=notes', 200],
    ['/api/toolsearch', '/api/toolsearch?q=', 400],
    ['/api/route', '/api/route?task=create%20a%20note', 200],
    ['/api/maps', '/api/maps?a=root&day=2026-11-29', 200],
    ['/api/maps', `/api/maps?a=root&day=${TODAY}`, 404],
    ['/.well-known/mcp-atlas.json', '/.well-known/mcp-atlas.json', 200],
  ])('GET %s (%s) answers %i as documented', async (path, url, status) => {
    const response = await getJsonAt(f.base + url);
    expect(response.status).toBe(status);
    expectDocumented(path, 'get', status, response.body);
  });

  it('POST /api/reports and /api/sensors answer as documented', async () => {
    const report = await postJson(
      `${f.base}/api/reports`,
      { server: 'notes-hub', tool: 'list_notes', ok: true },
      { 'x-forwarded-for': '192.0.2.1' },
    );
    expect(report.status).toBe(201);
    expectDocumented('/api/reports', 'post', 201, report.body);
    const refused = await postJson(
      `${f.base}/api/reports`,
      { server: 'notes-hub', tool: 'list_notes', ok: 'yes' },
      { 'x-forwarded-for': '192.0.2.1' },
    );
    expectDocumented('/api/reports', 'post', 400, refused.body);
    const batch = await postJson(
      `${f.base}/api/sensors`,
      { sensor: 'doc-check', outcomes: [{ server: 'notes-hub', ok: true, at: '2026-12-01T09:00:00Z' }] },
      { 'x-forwarded-for': '192.0.2.1' },
    );
    expect(batch.status).toBe(201);
    expectDocumented('/api/sensors', 'post', 201, batch.body);
  });
});
