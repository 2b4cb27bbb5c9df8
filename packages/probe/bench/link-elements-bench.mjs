// Benchmark: `findLinkElements` on adversarial home pages, against the regex version it replaced, both
// measured in this run. The old version removed comments with a lazy regex and then matched `<link\b[^>]*>`:
// each unclosed `<!--` or `<link` made the regex scan to the end of the page, so 256 KiB of `<!--` cost
// seconds of synchronous CPU. The baseline below is a copy of it, kept here only as the yardstick.
//   node bench/link-elements-bench.mjs [--kib 256] [--runs 20]
// Run it with `pnpm --filter @mcp-atlas/probe bench:links`, which first builds discovery.ts and constants.ts on
// their own into node_modules/.cache/link-elements-bench: findLinkElements is internal, in no published entry,
// and the copy never leaves this machine. No network.
const built = new URL('../node_modules/.cache/link-elements-bench/', import.meta.url);
const { findLinkElements } = await import(new URL('discovery.js', built).href);
const { MCP_LINK_RELATIONS } = await import(new URL('constants.js', built).href);

function flag(name, fallback) {
  const at = process.argv.indexOf(`--${name}`);
  return at === -1 ? fallback : Number(process.argv[at + 1]);
}

const KIB = flag('kib', 256);
const RUNS = flag('runs', 20);
const SIZE = KIB * 1024;

// ---- the baseline: the replaced implementation, verbatim in behaviour ---------------------------------
function decodeEntities(text) {
  return text.replace(
    /&(amp|lt|gt|quot|#39);/g,
    (_, name) => ({ amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'" })[name] ?? _,
  );
}
function attribute(tag, name) {
  const match = new RegExp(`\\s${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)'|([^\\s"'>]+))`, 'i').exec(tag);
  if (match === null) return null;
  return decodeEntities(match[1] ?? match[2] ?? match[3] ?? '');
}
function oldFindLinkElements(html) {
  const hrefs = [];
  const withoutComments = html.replace(/<!--[\s\S]*?-->/g, '');
  for (const match of withoutComments.matchAll(/<link\b[^>]*>/gi)) {
    const tag = match[0];
    const rel = attribute(tag, 'rel');
    const href = attribute(tag, 'href');
    if (rel === null || href === null) continue;
    if (
      rel
        .toLowerCase()
        .split(/\s+/)
        .some((r) => MCP_LINK_RELATIONS.has(r))
    )
      hrefs.push(href.trim());
  }
  return hrefs;
}
// -------------------------------------------------------------------------------------------------------

function repeatTo(unit, bytes) {
  return unit.repeat(Math.ceil(bytes / unit.length)).slice(0, bytes);
}

const INPUTS = [
  ['unclosed comments (<!-- repeated)', repeatTo('<!--', SIZE)],
  ['unclosed link tags (<link repeated)', repeatTo('<link', SIZE)],
  ['link tags with a long unquoted rel', repeatTo('<link rel=mcp', SIZE)],
  ['one huge link tag, closed at the end', `<link${repeatTo(' rel', SIZE)} rel="mcp" href="/mcp">`],
  [
    'a normal head (control: both are fast)',
    repeatTo(
      '<meta charset="utf-8"><!-- a comment --><link rel="stylesheet" href="/s.css"><link rel="mcp" href="/mcp">\n',
      SIZE,
    ),
  ],
];

function timeOnce(fn, input) {
  const started = process.hrtime.bigint();
  const out = fn(input);
  return { ms: Number(process.hrtime.bigint() - started) / 1e6, out };
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

console.log(
  `findLinkElements on ${KIB} KiB inputs; old = the replaced regex version (1 run, it is slow), new = median of ${RUNS} runs`,
);
for (const [label, html] of INPUTS) {
  const old = timeOnce(oldFindLinkElements, html);
  const runs = [];
  let out = [];
  for (let i = 0; i < RUNS; i++) {
    const run = timeOnce(findLinkElements, html);
    runs.push(run.ms);
    out = run.out;
  }
  const fresh = median(runs);
  const same = JSON.stringify(old.out) === JSON.stringify(out);
  console.log(
    `${label.padEnd(42)} old ${old.ms.toFixed(1).padStart(8)} ms   new ${fresh.toFixed(2).padStart(7)} ms   old/new ${(old.ms / Math.max(fresh, 0.001)).toFixed(0).padStart(6)}x   same links: ${same}`,
  );
}
