// SARIF 2.1.0 output for code-scanning uploads: one result per finding and one per risk rise. Code
// scanning needs a file to pin each result to; a server has no source line, so every result points at the
// baseline file (the file that records what the server is expected to look like), line 1.
import { FINDING_IDS, FINDING_TITLES } from '@mcp-atlas/findings';
import { SARIF_FINDING_RULE_PREFIX, SARIF_RISK_RISE_RULE, SARIF_SCHEMA_URI, SARIF_VERSION } from './constants.js';
import type { CheckReport } from './report-schema.js';

/** The SARIF log `mcp-atlas check --sarif` writes, as a plain JSON value. */
export interface SarifLog {
  $schema: string;
  version: string;
  runs: SarifRun[];
}

interface SarifRule {
  id: string;
  name: string;
  shortDescription: { text: string };
  defaultConfiguration: { level: 'note' | 'warning' | 'error' };
}

interface SarifResult {
  ruleId: string;
  ruleIndex: number;
  level: 'note' | 'warning' | 'error';
  message: { text: string };
  locations: { physicalLocation: { artifactLocation: { uri: string }; region: { startLine: number } } }[];
  partialFingerprints: Record<string, string>;
}

interface SarifRun {
  tool: { driver: { name: string; informationUri: string; version: string; rules: SarifRule[] } };
  results: SarifResult[];
  properties: { target: string; letter: string; reason: string };
}

/** The rules every log lists: one per finding id, then the risk rise, so rule indexes never move. */
export function sarifRules(): SarifRule[] {
  const findingRules = FINDING_IDS.map((id) => ({
    id: `${SARIF_FINDING_RULE_PREFIX}${id}`,
    name: FINDING_TITLES[id].replace(/\s+/g, ''),
    shortDescription: { text: FINDING_TITLES[id] },
    defaultConfiguration: { level: 'warning' as const },
  }));
  const rise = {
    id: SARIF_RISK_RISE_RULE,
    name: 'RiskRise',
    shortDescription: { text: 'A tool can do more than the baseline says' },
    defaultConfiguration: { level: 'error' as const },
  };
  return [...findingRules, rise];
}

/**
 * Builds the SARIF log of a check report. `locationUri` is the file results point at (the baseline file,
 * relative to the repository root). Fingerprints name the rule and the tool so code scanning can follow
 * one result across runs.
 */
export function buildSarif(report: CheckReport, locationUri: string, toolVersion: string): SarifLog {
  const rules = sarifRules();
  const indexOf = (id: string): number => rules.findIndex((rule) => rule.id === id);
  const location = [{ physicalLocation: { artifactLocation: { uri: locationUri }, region: { startLine: 1 } } }];
  const results: SarifResult[] = [];
  for (const finding of report.findings) {
    const ruleId = `${SARIF_FINDING_RULE_PREFIX}${finding.id}`;
    results.push({
      ruleId,
      ruleIndex: indexOf(ruleId),
      level: 'warning',
      message: { text: `${report.target}: ${finding.message}` },
      locations: location,
      partialFingerprints: { 'mcpAtlasRule/v1': `${ruleId}|${report.target}` },
    });
  }
  for (const rise of report.baseline?.riskRises ?? []) {
    results.push({
      ruleId: SARIF_RISK_RISE_RULE,
      ruleIndex: indexOf(SARIF_RISK_RISE_RULE),
      level: 'error',
      message: { text: `${report.target}: tool "${rise.name}" rose from ${rise.from ?? 'absent'} to ${rise.to}` },
      locations: location,
      partialFingerprints: { 'mcpAtlasRule/v1': `${SARIF_RISK_RISE_RULE}|${report.target}|${rise.name}` },
    });
  }
  return {
    $schema: SARIF_SCHEMA_URI,
    version: SARIF_VERSION,
    runs: [
      {
        tool: {
          driver: {
            name: 'mcp-atlas check',
            informationUri: 'https://github.com/mcp-atlas/mcp-atlas',
            version: toolVersion,
            rules,
          },
        },
        results,
        properties: { target: report.target, letter: report.letter, reason: report.reason },
      },
    ],
  };
}
