// The Action's job summary: turns `mcp-atlas check --json` output (schema mcp-atlas.check/1) into Markdown,
// appends it to $GITHUB_STEP_SUMMARY and prints it to the log. It runs after a failed check too, so it never
// throws: a missing or unreadable report gives a summary that says so. Tool names, descriptions and messages
// come from the checked server, so every piece of text is escaped before it goes into the Markdown.
// Usage: node summary.mjs <report.json> <exit code>. No dependencies: it runs before anything is installed.
import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

/** Most tool rows shown; a summary is capped by GitHub (1 MiB) and a long table helps nobody. */
export const MAX_TOOL_ROWS = 100;

/** What each exit code of `check` means. */
export const EXIT_MEANINGS = { 0: 'passed', 1: 'a gate tripped', 2: 'usage error' };

/** Escapes text from the server for a Markdown table cell or line: no HTML, no pipes, no line breaks. */
export function escapeMarkdown(value) {
  return String(value)
    .replace(/[\r\n]+/g, ' ')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/([\\`*_[\]|#!])/g, '\\$1');
}

/** Reads the report, or returns the reason it cannot be used. */
export function readReport(path) {
  if (!path || !existsSync(path)) return { report: null, problem: 'no report was written' };
  const text = readFileSync(path, 'utf8');
  if (text.trim() === '') return { report: null, problem: 'the report is empty' };
  try {
    const report = JSON.parse(text);
    if (report?.schema !== 'mcp-atlas.check/1') return { report: null, problem: 'the report has an unknown schema' };
    return { report, problem: null };
  } catch {
    return { report: null, problem: 'the report is not JSON' };
  }
}

function headline(exitCode, report) {
  const meaning = EXIT_MEANINGS[exitCode] ?? 'the check did not finish';
  const mark = exitCode === 0 ? '✅' : '❌';
  const target = report ? ` for ${escapeMarkdown(report.target)}` : '';
  return `## ${mark} mcp-atlas check${target}: ${meaning} (exit ${exitCode})`;
}

function answerLines(report) {
  const lines = [
    `- Answer: letter **${escapeMarkdown(report.letter)}** (${escapeMarkdown(report.reason)}): ${escapeMarkdown(report.message)}`,
    `- Transport: ${escapeMarkdown(report.transport)}; protocol ${escapeMarkdown(report.protocolVersion ?? 'none')}`,
  ];
  if (report.serverInfo)
    lines.push(`- Server: ${escapeMarkdown(report.serverInfo.name)} ${escapeMarkdown(report.serverInfo.version)}`);
  const tripped = report.gates.tripped;
  lines.push(`- Gates: ${report.gates.failOn.map(escapeMarkdown).join(', ') || 'none'}; tripped: ${tripped.length}`);
  for (const gate of tripped) lines.push(`  - **${escapeMarkdown(gate.gate)}**: ${escapeMarkdown(gate.detail)}`);
  return lines;
}

function toolTable(report) {
  if (report.tools.length === 0) return [`No tools listed (${report.toolCount} reported by the server).`];
  const counts = {};
  for (const tool of report.tools) counts[tool.level] = (counts[tool.level] ?? 0) + 1;
  const tally = Object.entries(counts)
    .map(([level, count]) => `${count} ${level}`)
    .join(', ');
  const lines = [
    `### Tools: ${report.toolCount} (${tally})`,
    '',
    '| tool | risk level | rule |',
    '| --- | --- | --- |',
  ];
  for (const tool of report.tools.slice(0, MAX_TOOL_ROWS))
    lines.push(`| ${escapeMarkdown(tool.name)} | ${escapeMarkdown(tool.level)} | ${tool.rule} |`);
  if (report.tools.length > MAX_TOOL_ROWS)
    lines.push('', `…and ${report.tools.length - MAX_TOOL_ROWS} more tools (see the JSON report).`);
  return lines;
}

function findingLines(report) {
  if (report.findings.length === 0) return ['### Findings: none'];
  return [
    `### Findings: ${report.findings.length}`,
    '',
    ...report.findings.map((f) => `- **${escapeMarkdown(f.title)}** (\`${f.id}\`): ${escapeMarkdown(f.message)}`),
  ];
}

function baselineLines(report) {
  const b = report.baseline;
  if (!b) return [];
  if (b.unchanged) return [`### Baseline \`${escapeMarkdown(b.file)}\`: unchanged`];
  const names = (list) => list.map(escapeMarkdown).join(', ');
  const lines = [`### Baseline \`${escapeMarkdown(b.file)}\`: changed`, ''];
  if (b.added.length) lines.push(`- added: ${names(b.added)}`);
  if (b.removed.length) lines.push(`- removed: ${names(b.removed)}`);
  if (b.changed.length) lines.push(`- changed: ${names(b.changed)}`);
  for (const r of b.renamed) lines.push(`- renamed: ${escapeMarkdown(r.from)} → ${escapeMarkdown(r.to)}`);
  for (const r of b.riskRises)
    lines.push(`- risk rise: ${escapeMarkdown(r.name)} ${escapeMarkdown(r.from ?? 'new')} → ${escapeMarkdown(r.to)}`);
  return lines;
}

function deepLines(report) {
  const d = report.deep;
  if (!d) return [];
  if (d.skipped) return [`### Deep mode: skipped (${escapeMarkdown(d.skipped)})`];
  const parts = Object.entries(d.compliance.parts)
    .map(([name, value]) => `${name} ${value ?? 'not measured'}`)
    .join(', ');
  return [`### Deep mode: compliance score ${d.compliance.score ?? 'not measured'}`, '', `Parts: ${parts}.`];
}

/** The whole summary as Markdown. */
export function renderSummary(report, exitCode, problem = null) {
  const sections = [[headline(exitCode, report)]];
  if (!report) {
    sections.push([`No result to show: ${problem ?? 'no report'}. The step log above has the command's own message.`]);
  } else {
    sections.push(
      answerLines(report),
      toolTable(report),
      findingLines(report),
      baselineLines(report),
      deepLines(report),
    );
  }
  return `${sections
    .filter((lines) => lines.length > 0)
    .map((lines) => lines.join('\n'))
    .join('\n\n')}\n`;
}

/** Reads the report named on the command line and writes its summary. */
export function main(argv, env) {
  const [reportPath, code] = argv;
  const exitCode = Number.parseInt(code ?? '', 10);
  const { report, problem } = readReport(reportPath);
  const markdown = renderSummary(report, Number.isNaN(exitCode) ? -1 : exitCode, problem);
  if (env.GITHUB_STEP_SUMMARY) appendFileSync(env.GITHUB_STEP_SUMMARY, markdown);
  process.stdout.write(markdown);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) main(process.argv.slice(2), process.env);
