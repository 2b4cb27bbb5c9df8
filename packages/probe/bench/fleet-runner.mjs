// Benchmark runner: probes every endpoint of the fleet with `concurrency` checks in flight, with this
// package's probeServer (built dist, pinned Node client), with the official SDK Client doing connect +
// listTools + close, or with a bare node:http client that only sends the three POSTs and parses the
// answers (a reference for what this machine allows at all). Runs in its own process so its CPU time and
// peak RSS are its own.
import http from 'node:http';
import { performance } from 'node:perf_hooks';

const [mode, portsJson, concurrencyArg] = process.argv.slice(2);
const ports = JSON.parse(portsJson);
const concurrency = Number(concurrencyArg);
const urls = ports.map((port) => `http://127.0.0.1:${port}/mcp`);

function bareClient() {
  const post = (agent, url, body) =>
    new Promise((resolve, reject) => {
      const request = http.request(
        url,
        {
          method: 'POST',
          agent,
          headers: {
            'content-type': 'application/json',
            accept: 'application/json, text/event-stream',
            'content-length': Buffer.byteLength(body),
          },
        },
        (response) => {
          const chunks = [];
          response.on('data', (c) => chunks.push(c));
          response.on('end', () =>
            resolve(chunks.length === 0 ? null : JSON.parse(Buffer.concat(chunks).toString('utf8'))),
          );
          response.on('error', reject);
        },
      );
      request.on('error', reject);
      request.end(body);
    });
  return async (url) => {
    const agent = new http.Agent({ keepAlive: true });
    try {
      await post(
        agent,
        url,
        JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'initialize',
          params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'bare', version: '1' } },
        }),
      );
      await post(agent, url, JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }));
      const listed = await post(
        agent,
        url,
        JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} }),
      );
      return listed.result.tools.length > 0;
    } finally {
      agent.destroy();
    }
  };
}

async function makeCheck() {
  if (mode === 'bare') return bareClient();
  if (mode === 'probe') {
    const { probeServer } = await import('../dist/index.js');
    const { nodeNetwork } = await import('../dist/node.js');
    return async (url) => {
      const result = await probeServer(url, { ...nodeNetwork, allowPrivate: true });
      return result.letter === 'o' && result.toolCount > 0;
    };
  }
  const { Client } = await import('@modelcontextprotocol/sdk/client/index.js');
  const { StreamableHTTPClientTransport } = await import('@modelcontextprotocol/sdk/client/streamableHttp.js');
  return async (url) => {
    const client = new Client({ name: 'bench-baseline', version: '1.0.0' });
    try {
      await client.connect(new StreamableHTTPClientTransport(new URL(url)));
      const listed = await client.listTools();
      return listed.tools.length > 0;
    } catch {
      return false;
    } finally {
      await client.close().catch(() => undefined);
    }
  };
}

async function runAll(check, list) {
  let next = 0;
  let ok = 0;
  const worker = async () => {
    while (next < list.length) {
      const url = list[next++];
      if (await check(url)) ok++;
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, list.length) }, worker));
  return ok;
}

const check = await makeCheck();
// Warm the JIT on a few endpoints, outside the measurement, the same way for both modes.
await runAll(check, urls.slice(0, Math.min(20, urls.length)));
const cpuBefore = process.cpuUsage();
const started = performance.now();
const ok = await runAll(check, urls);
const wallMs = performance.now() - started;
const cpu = process.cpuUsage(cpuBefore);
process.stdout.write(
  `${JSON.stringify({ mode, probes: urls.length, ok, wallMs, cpuMs: (cpu.user + cpu.system) / 1000, maxRssMb: process.resourceUsage().maxRSS / 1024 })}\n`,
);
