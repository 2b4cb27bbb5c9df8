// The score's auth-discovery input for a sign-in server (letter a): the check's own sign-in discovery decides it
// when the day's result carries one; a result written before the check kept it falls back to the day's root
// well-known read of its origin.
import { deepProbeOf } from '@mcp-atlas/operations';
import type { AuthDiscovery } from '@mcp-atlas/probe';
import { describe, expect, it } from 'vitest';
import type { ServerDayResult } from '../src/data/schemas.js';
import { authDocumentFound } from '../src/score/score-inputs.js';

const FOUND: AuthDiscovery = {
  protectedResource: { url: 'https://mcp.example.com/.well-known/oauth-protected-resource/mcp', source: 'path' },
  authorizationServer: { issuer: 'https://auth.example.com/', source: 'protected-resource' },
  authorizationServerMetadata: {
    url: 'https://auth.example.com/.well-known/oauth-authorization-server',
    kind: 'oauth',
  },
  reads: [],
};
const NOTHING: AuthDiscovery = {
  protectedResource: null,
  authorizationServer: { issuer: 'https://mcp.example.com/', source: 'server-origin' },
  authorizationServerMetadata: null,
  reads: [],
};

function signInResult(authDiscovery?: AuthDiscovery | null): ServerDayResult {
  return {
    id: 'vault',
    url: 'https://mcp.example.com/mcp',
    letter: 'a',
    reason: 'auth-required',
    message: 'initialize answered 401: sign-in needed',
    notStandardMcp: false,
    protocolVersion: null,
    serverName: null,
    serverVersion: null,
    elapsedMs: 40,
    steps: [],
    toolCount: 0,
    toolsHash: null,
    tokens: null,
    findings: [],
    highRiskTools: 0,
    paymentAddress: null,
    redirect: null,
    category: null,
    ...(authDiscovery === undefined ? {} : { authDiscovery }),
  };
}

describe('the auth-discovery input of the score', () => {
  it("is the check's discovery when the result carries it, whatever the root read said", () => {
    expect(authDocumentFound(signInResult(FOUND), false)).toBe(true);
    expect(authDocumentFound(signInResult(NOTHING), true)).toBe(false);
  });

  it("falls back to the origin's root read for a result without discovery, and is null with neither", () => {
    expect(authDocumentFound(signInResult(), true)).toBe(true);
    expect(authDocumentFound(signInResult(null), false)).toBe(false);
    expect(authDocumentFound(signInResult(), undefined)).toBeNull();
  });

  it('gives the bonus input to a sign-in server whose path-based metadata was found', () => {
    const result = signInResult(FOUND);
    expect(deepProbeOf(result, null, authDocumentFound(result, false)).authDiscoveryValid).toBe(true);
  });
});
