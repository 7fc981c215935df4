// Starts the server under Bun and drives one session through start → navigate → act → end, with one
// CDP client attached through the server's CDP relay, then the hosted MCP tools at /mcp.
// Run by .ci/run when Bun installs from npm: `node test/bun-smoke.mjs` with `bun` on PATH.
import { spawn } from 'node:child_process';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { chromium } from 'playwright-core';

const child = spawn('bun', ['packages/server/src/main.ts'], { env: { ...process.env, PORT: '0', HOST: '127.0.0.1' }, stdio: ['ignore', 'pipe', 'inherit'] });
const fail = (message) => {
  child.kill('SIGKILL');
  console.error(`bun smoke: ${message}`);
  process.exit(1);
};
const timer = setTimeout(() => fail('timed out'), 60_000);

const url = await new Promise((resolve) => {
  let out = '';
  child.stdout.on('data', (chunk) => {
    out += chunk;
    const match = out.match(/listening on (http:\/\/\S+)/);
    if (match) resolve(match[1]);
  });
  child.on('exit', (code) => fail(`exited early with ${code}`));
});

const post = async (path, body) => {
  const response = await fetch(url + path, { method: 'POST', headers: { 'content-type': 'application/json', 'x-stream-response': 'false' }, body: JSON.stringify(body) });
  const json = await response.json();
  if (!response.ok) fail(`${path}: ${response.status} ${JSON.stringify(json)}`);
  return json;
};

const started = await post('/v1/sessions/start', { modelName: 'builtin/offline', browser: { type: 'local', launchOptions: { headless: true } } });
const id = started.data.sessionId;
await post(`/v1/sessions/${id}/navigate`, { url: 'data:text/html,<button onclick="document.title=1">Go</button>' });
const acted = await post(`/v1/sessions/${id}/act`, { input: { selector: 'button', method: 'click' } });
if (!acted.data.result.success) fail(`act failed: ${acted.data.result.message}`);
if (!started.data.cdpUrl.startsWith(url.replace(/^http/, 'ws'))) fail(`cdpUrl is not the relay: ${started.data.cdpUrl}`);
const observer = await chromium.connectOverCDP(started.data.cdpUrl);
const title = await observer.contexts()[0].pages()[0].title();
await observer.close();
if (title !== '1') fail(`the page seen through the CDP relay has title ${JSON.stringify(title)}`);
await post(`/v1/sessions/${id}/end`, {});

// The hosted MCP server at /mcp, in both protocol revisions: navigate and extract through the tools.
for (const [era, options] of [['2025-11-25', {}], ['2026-07-28', { versionNegotiation: { mode: { pin: '2026-07-28' } } }]]) {
  const client = new Client({ name: 'bun-smoke', version: '1.0.0' }, options);
  const transport = new StreamableHTTPClientTransport(new URL(`${url}/mcp`));
  await client.connect(transport);
  await client.callTool({ name: 'navigate', arguments: { url: 'data:text/html,<h1>Hello from Bun</h1>' } });
  const extracted = await client.callTool({ name: 'extract', arguments: {} });
  if (!JSON.stringify(extracted.content).includes('Hello from Bun')) fail(`MCP ${era} extract saw ${JSON.stringify(extracted.content)}`);
  await client.callTool({ name: 'end', arguments: {} });
  if (era === '2025-11-25') await transport.terminateSession();
  await client.close();
}
clearTimeout(timer);
child.removeAllListeners('exit');
child.kill('SIGTERM');
console.log('bun smoke: start → navigate → act (seen through the CDP relay) → end, and /mcp in both MCP revisions, passed under Bun');
