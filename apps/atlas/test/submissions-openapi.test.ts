// The new routes answer as the OpenAPI document says, checked against the served document with a JSON
// Schema validator: submissions, and each owner step (here without a token reader, so verification is 503).
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getJsonAt, postJson, type RunningFixture, startFixture } from './fixtures/http-atlas.js';

let f: RunningFixture;
let doc: any;
const validator = new AjvJsonSchemaValidator();

beforeAll(async () => {
  f = await startFixture();
  doc = (await getJsonAt(`${f.base}/api/openapi.json`)).body;
});
afterAll(async () => {
  await f.close();
});

function expectDocumented(path: string, method: string, status: number, body: unknown): void {
  const schema = doc.paths[path]?.[method]?.responses?.[String(status)]?.content?.['application/json']?.schema;
  expect(schema, `${method} ${path} documents ${status}`).toBeDefined();
  const check = validator.getValidator({ allOf: [schema], components: doc.components } as never)(body);
  expect(check.errorMessage ?? 'valid').toBe('valid');
}

const FROM = { 'x-forwarded-for': '192.0.2.44' };

describe('the owners’ routes in the OpenAPI document', () => {
  it('document the submission body: the url and the optional proveOwnership, and no other field allowed', () => {
    const body = doc.components.schemas.SubmissionBody;
    expect(Object.keys(body.properties)).toEqual(['url', 'proveOwnership']);
    expect(body.required).toEqual(['url']);
    expect(body.additionalProperties).toBe(false);
    expect(Object.keys(doc.components.schemas.OwnerSettingsBody.properties).sort()).toEqual([
      'fiveMinuteChecks',
      'note',
      'server',
      'webhookUrl',
    ]);
    expect(doc.components.schemas.ServerDetail.properties.owner).toBeDefined();
  });

  it('match what POST /api/submissions and GET /api/submissions/{id} answer', async () => {
    const created = await postJson(`${f.base}/api/submissions`, { url: 'https://mcp.documented.example/mcp' }, FROM);
    expect(created.status).toBe(201);
    expectDocumented('/api/submissions', 'post', 201, created.body);
    const again = await postJson(`${f.base}/api/submissions`, { url: 'https://mcp.documented.example/mcp' }, FROM);
    expectDocumented('/api/submissions', 'post', 200, again.body);
    expectDocumented(
      '/api/submissions',
      'post',
      400,
      (await postJson(`${f.base}/api/submissions`, { url: 'http://x.example/mcp' }, FROM)).body,
    );
    const read = await getJsonAt(`${f.base}/api/submissions/${created.body.submission.id}`);
    expectDocumented('/api/submissions/{id}', 'get', 200, read.body);
    expectDocumented(
      '/api/submissions/{id}',
      'get',
      404,
      (await getJsonAt(`${f.base}/api/submissions/sub-${'a'.repeat(20)}`)).body,
    );
  });

  it('match what the owner steps answer', async () => {
    const token = await postJson(`${f.base}/api/owners/token`, { server: 'notes-hub' }, FROM);
    expect(token.status).toBe(200);
    expectDocumented('/api/owners/token', 'post', 200, token.body);
    const verify = await postJson(`${f.base}/api/owners/verify`, { server: 'notes-hub' }, FROM);
    expect(verify.status).toBe(503);
    expectDocumented('/api/owners/verify', 'post', 503, verify.body);
    const settings = await postJson(`${f.base}/api/owners/settings`, { server: 'notes-hub', note: 'hi' }, FROM);
    expect(settings.status).toBe(409);
    expectDocumented('/api/owners/settings', 'post', 409, settings.body);
  });
});
