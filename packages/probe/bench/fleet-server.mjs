// Benchmark fleet: one process hosting many small MCP endpoints, each its own HTTP server on 127.0.0.1
// (its own port, so every endpoint is a separate origin, as real servers are). Every POST is answered
// after a fixed delay, the fleet's "own delay"; other requests (the SDK client's GET for a stream, a
// DELETE) are answered at once. Prints one JSON line with the ports, then serves until stdin closes.
import http from 'node:http';

const [count = '2000', delay = '100', tools = '8'] = process.argv.slice(2);
const FLEET = Number(count);
const DELAY_MS = Number(delay);
const TOOL_COUNT = Number(tools);

const toolList = Array.from({ length: TOOL_COUNT }, (_, i) => ({
  name: `fleet_tool_${i}`,
  description: `Benchmark tool ${i}: reads a record by id and returns it.`,
  inputSchema: {
    type: 'object',
    properties: { id: { type: 'string', description: 'the record id' } },
    required: ['id'],
  },
  annotations: { readOnlyHint: true },
}));
const INIT = {
  protocolVersion: '2025-06-18',
  capabilities: { tools: {} },
  serverInfo: { name: 'fleet', version: '1.0.0' },
};

function answer(res, status, value) {
  const text = value === undefined ? '' : JSON.stringify(value);
  res.writeHead(
    status,
    value === undefined ? {} : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) },
  );
  res.end(text);
}

function handle(req, res) {
  if (req.method !== 'POST') {
    req.resume();
    return answer(res, req.method === 'DELETE' ? 204 : 405);
  }
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    setTimeout(() => {
      let message;
      try {
        message = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        return answer(res, 400, { jsonrpc: '2.0', id: null, error: { code: -32700, message: 'parse error' } });
      }
      if (message.method === 'initialize') return answer(res, 200, { jsonrpc: '2.0', id: message.id, result: INIT });
      if (message.method === 'tools/list')
        return answer(res, 200, { jsonrpc: '2.0', id: message.id, result: { tools: toolList } });
      if (message.id === undefined) return answer(res, 202);
      answer(res, 200, { jsonrpc: '2.0', id: message.id, error: { code: -32601, message: 'not here' } });
    }, DELAY_MS);
  });
}

const ports = [];
for (let i = 0; i < FLEET; i++) {
  const server = http.createServer(handle);
  server.keepAliveTimeout = 5_000;
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  ports.push(server.address().port);
}
process.stdout.write(`${JSON.stringify({ ports, delayMs: DELAY_MS, tools: TOOL_COUNT })}\n`);
process.stdin.resume();
process.stdin.on('end', () => process.exit(0));
