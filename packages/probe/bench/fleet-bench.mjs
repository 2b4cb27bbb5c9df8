// Benchmark: probe a loopback fleet (default 2,000 endpoints in one process) and report, as ratios
// measured in this run, (1) wall time against the floor (the fleet's own delays divided by the
// concurrency), (2) CPU per probe against the official SDK Client doing connect + listTools on the same
// servers, and (3) the probe's peak RSS. Each side runs in its own process. A bare node:http client that
// only sends the three POSTs runs too, as a reference for the wall time this machine allows at all.
//   node bench/fleet-bench.mjs [--fleet 2000] [--concurrency 100] [--delay 100] [--tools 8] [--rounds 3]
// The three clients run one after another, `rounds` times over; each figure is the median of its rounds,
// so a burst of load from other work on a shared machine moves one round, not the result.
// Run it with `pnpm --filter @mcp-atlas/probe bench` (builds first). Traffic stays on 127.0.0.1.
import { execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import { cpus } from 'node:os';
import { fileURLToPath } from 'node:url';

const here = fileURLToPath(new URL('.', import.meta.url));

function flag(name, fallback) {
  const at = process.argv.indexOf(`--${name}`);
  return at === -1 ? fallback : Number(process.argv[at + 1]);
}

const FLEET = flag('fleet', 2_000);
const CONCURRENCY = flag('concurrency', 100);
const DELAY_MS = flag('delay', 100);
const TOOLS = flag('tools', 8);
const ROUNDS = flag('rounds', 3);
// Each probe makes three POSTs (initialize, notifications/initialized, tools/list), each delayed by the fleet.
const DELAYED_REQUESTS_PER_PROBE = 3;
const TARGETS = { wallOverFloor: 1.2, cpuVsSdk: 1 / 3, rssMb: 300 };

async function startFleet() {
  const child = spawn(process.execPath, [`${here}fleet-server.mjs`, String(FLEET), String(DELAY_MS), String(TOOLS)], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  let text = '';
  child.stdout.setEncoding('utf8');
  while (!text.includes('\n')) {
    const [chunk] = await once(child.stdout, 'data');
    text += chunk;
  }
  return { child, ports: JSON.parse(text).ports };
}

function run(mode, ports) {
  const out = execFileSync(
    process.execPath,
    [`${here}fleet-runner.mjs`, mode, JSON.stringify(ports), String(CONCURRENCY)],
    { encoding: 'utf8', maxBuffer: 1 << 26 },
  );
  return JSON.parse(out.trim().split('\n').at(-1));
}

const fleet = await startFleet();
try {
  const rounds = [];
  for (let round = 0; round < ROUNDS; round++) {
    rounds.push({ bare: run('bare', fleet.ports), probe: run('probe', fleet.ports), sdk: run('sdk', fleet.ports) });
  }
  const median = (values) => {
    const sorted = [...values].sort((a, b) => a - b);
    return sorted[Math.floor((sorted.length - 1) / 2)];
  };
  const pick = (side) => ({
    probes: FLEET,
    ok: Math.min(...rounds.map((r) => r[side].ok)),
    wallMs: median(rounds.map((r) => r[side].wallMs)),
    cpuMs: median(rounds.map((r) => r[side].cpuMs)),
    maxRssMb: Math.max(...rounds.map((r) => r[side].maxRssMb)),
  });
  const bare = pick('bare');
  const probe = pick('probe');
  const sdk = pick('sdk');
  const floorMs = (FLEET * DELAYED_REQUESTS_PER_PROBE * DELAY_MS) / CONCURRENCY;
  const wallOverFloor = probe.wallMs / floorMs;
  const cpuPerProbeMs = probe.cpuMs / probe.probes;
  const sdkCpuPerProbeMs = sdk.cpuMs / sdk.probes;
  const cpuVsSdk = median(rounds.map((r) => r.probe.cpuMs / r.sdk.cpuMs));
  const report = {
    ran: {
      fleet: FLEET,
      concurrency: CONCURRENCY,
      delayMsPerPost: DELAY_MS,
      toolsPerServer: TOOLS,
      rounds: ROUNDS,
      node: process.version,
      cores: cpus().length,
    },
    perRound: rounds.map((r) => ({
      probeWallMs: Math.round(r.probe.wallMs),
      bareWallMs: Math.round(r.bare.wallMs),
      sdkWallMs: Math.round(r.sdk.wallMs),
      cpuPerProbeVsSdk: +(r.probe.cpuMs / r.sdk.cpuMs).toFixed(3),
    })),
    probe: {
      answeredWithTools: probe.ok,
      wallMs: Math.round(probe.wallMs),
      cpuMs: Math.round(probe.cpuMs),
      cpuPerProbeMs: +cpuPerProbeMs.toFixed(3),
      peakRssMb: Math.round(probe.maxRssMb),
    },
    sdkClient: {
      answeredWithTools: sdk.ok,
      wallMs: Math.round(sdk.wallMs),
      cpuMs: Math.round(sdk.cpuMs),
      cpuPerProbeMs: +sdkCpuPerProbeMs.toFixed(3),
      peakRssMb: Math.round(sdk.maxRssMb),
    },
    bareClient: {
      answeredWithTools: bare.ok,
      wallMs: Math.round(bare.wallMs),
      cpuPerProbeMs: +(bare.cpuMs / bare.probes).toFixed(3),
      peakRssMb: Math.round(bare.maxRssMb),
    },
    figures: {
      floorMs: Math.round(floorMs),
      wallOverFloor: +wallOverFloor.toFixed(3),
      bareClientWallOverFloor: +(bare.wallMs / floorMs).toFixed(3),
      wallVsBareClient: +(probe.wallMs / bare.wallMs).toFixed(3),
      cpuPerProbeVsSdk: +cpuVsSdk.toFixed(3),
      peakRssMb: Math.round(probe.maxRssMb),
    },
    targets: {
      wallOverFloor: `<= ${TARGETS.wallOverFloor}: ${wallOverFloor <= TARGETS.wallOverFloor ? 'met' : 'missed'}`,
      cpuPerProbeVsSdk: `<= 0.333: ${cpuVsSdk <= TARGETS.cpuVsSdk ? 'met' : 'missed'}`,
      peakRssMb: `<= ${TARGETS.rssMb}: ${probe.maxRssMb <= TARGETS.rssMb ? 'met' : 'missed'}`,
    },
  };
  console.log(JSON.stringify(report, null, 2));
} finally {
  fleet.child.stdin.end();
  fleet.child.kill('SIGTERM');
}
