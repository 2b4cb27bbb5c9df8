import { describe, expect, it } from 'vitest';
import {
  detectSpecFromSdk,
  detectSpecFromSourceMarkers,
  parseSdkVersion,
  SDK_MIN_FOR_2025_06_18,
  SDK_MIN_FOR_2025_11_25,
  specVersionForSdk,
  specVersionFromProtocolVersion,
  toSpecVersionMetadata,
} from '../src/spec-version.js';
import { MARKER_SPEC_VECTORS, SDK_SPEC_VECTORS } from './fixtures/engine-signal-vectors.js';

describe('SDK version to spec version', () => {
  it('keeps the engine boundaries 1.1.0 and 1.6.0', () => {
    expect(SDK_MIN_FOR_2025_06_18).toEqual([1, 1, 0]);
    expect(SDK_MIN_FOR_2025_11_25).toEqual([1, 6, 0]);
  });

  const cases: Array<[[number, number, number], string]> = [
    [[0, 9, 9], '2024-11-05'],
    [[1, 0, 99], '2024-11-05'],
    [[1, 1, 0], '2025-06-18'],
    [[1, 5, 99], '2025-06-18'],
    [[1, 6, 0], '2025-11-25'],
    [[1, 10, 0], '2025-11-25'],
    [[2, 0, 0], '2025-11-25'],
  ];
  for (const [version, spec] of cases) {
    it(`${version.join('.')} -> ${spec}`, () => {
      expect(specVersionForSdk(version)).toBe(spec);
    });
  }

  it('parses version text as the engine does', () => {
    expect(parseSdkVersion('^1.6.2')).toEqual([1, 6, 2]);
    expect(parseSdkVersion('  >= 1.2 ')).toEqual([1, 2, 0]);
    expect(parseSdkVersion('!=3')).toEqual([3, 0, 0]);
    expect(parseSdkVersion('1.10.0-beta.1')).toEqual([1, 10, 0]);
    expect(parseSdkVersion('v1.2.3')).toBeNull();
    expect(parseSdkVersion('workspace:*')).toBeNull();
    expect(parseSdkVersion('')).toBeNull();
  });
});

describe('detectSpecFromSdk on the engine 0.9.0 vectors', () => {
  for (const vector of SDK_SPEC_VECTORS) {
    it(`${vector.type}: ${JSON.stringify(vector.content).slice(0, 70)}`, () => {
      const result = detectSpecFromSdk(vector.content, vector.type);
      expect({
        detectedSpecVersion: result.detectedSpecVersion,
        sdkName: result.sdkName,
        sdkVersion: result.sdkVersion,
        confidence: result.confidence,
      }).toEqual({
        detectedSpecVersion: vector.detectedSpecVersion,
        sdkName: vector.sdkName,
        sdkVersion: vector.sdkVersion,
        confidence: vector.confidence,
      });
      expect(result.detectionSource).toBe('sdk_version');
    });
  }
});

describe('detectSpecFromSdk on odd manifests', () => {
  it('treats a package.json that is not an object, or an SDK version that is not text, as unknown', () => {
    expect(detectSpecFromSdk('[1,2]', 'package.json').detectedSpecVersion).toBe('unknown');
    const numeric = detectSpecFromSdk('{"dependencies":{"@modelcontextprotocol/sdk":1.6}}', 'package.json');
    expect(numeric).toMatchObject({
      detectedSpecVersion: 'unknown',
      sdkName: '@modelcontextprotocol/sdk',
      sdkVersion: '',
    });
  });

  it('does not read an SDK inherited from the object prototype', () => {
    const result = detectSpecFromSdk(
      '{"dependencies":{"__proto__":{"@modelcontextprotocol/sdk":"1.6.0"}}}',
      'package.json',
    );
    expect(result.detectedSpecVersion).toBe('unknown');
  });

  it('splits pyproject lines on every line break Python knows', () => {
    expect(detectSpecFromSdk('name = "x"\u2028"mcp>=1.6.0"', 'pyproject.toml').detectedSpecVersion).toBe('2025-11-25');
  });
});

describe('detectSpecFromSourceMarkers', () => {
  for (const vector of MARKER_SPEC_VECTORS) {
    it(`engine 0.9.0 vector: ${vector.files.map((file) => file.content).join(' | ') || 'no files'}`, () => {
      const result = detectSpecFromSourceMarkers(vector.files);
      expect(result.detectedSpecVersion).toBe(vector.detectedSpecVersion);
      expect(result.featuresDetected).toEqual(vector.featuresDetected);
      expect(result.confidence).toBe(vector.confidence);
    });
  }

  it('prefers the newest feature found', () => {
    const files = [
      { path: 'a.ts', content: 'new StreamableHTTPServerTransport()' },
      { path: 'b.ts', content: 'return { structuredContent }' },
    ];
    expect(detectSpecFromSourceMarkers(files)).toMatchObject({
      detectedSpecVersion: '2025-11-25',
      featuresDetected: ['streamable_http', 'structured_output'],
      detectionSource: 'source_markers',
      confidence: 'medium',
    });
  });
});

describe('specVersionFromProtocolVersion', () => {
  it('takes a known answered version as the spec version', () => {
    expect(specVersionFromProtocolVersion('2024-11-05')).toMatchObject({
      detectedSpecVersion: '2024-11-05',
      protocolVersion: '2024-11-05',
      detectionSource: 'protocol_probe',
      confidence: 'high',
    });
    expect(specVersionFromProtocolVersion('2025-03-26').detectedSpecVersion).toBe('2025-03-26');
  });

  it('gives unknown for an unknown or missing answer', () => {
    expect(specVersionFromProtocolVersion('2099-01-01')).toMatchObject({
      detectedSpecVersion: 'unknown',
      protocolVersion: '2099-01-01',
      confidence: 'low',
    });
    expect(specVersionFromProtocolVersion(null).protocolVersion).toBeNull();
  });
});

describe('toSpecVersionMetadata', () => {
  it('writes the engine key names that OUTDATED_SPEC reads', () => {
    expect(toSpecVersionMetadata(specVersionFromProtocolVersion('2024-11-05'))).toEqual({
      detected_spec_version: '2024-11-05',
      protocol_version: '2024-11-05',
      sdk_name: '',
      sdk_version: '',
      features_detected: [],
      detection_source: 'protocol_probe',
      confidence: 'high',
    });
  });
});
