// Two Deckhand nodes under Bun on one redis-server (issue 20): a session started on A is navigated
// through B, and its cdpUrl, opened on B, reaches A's page (Bun's websocket upgrade joined to the
// forwarded relay). Run by .ci/run beside bun-smoke.mjs: `node test/bun-cluster-smoke.mjs` with `bun` on PATH.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:net';
import { chromium } from 'playwright-core';

const children = [];
const fail = (message) => {
  for (const child of children) child.kill('SIGKILL');
  console.error(`bun cluster smoke: ${message}`);
  process.exit(1);
};
const timer = setTimeout(() => fail('timed out'), 120_000);

const freePort = () =>
  new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });

const redisPort = await freePort();
const redis = spawn('redis-server', ['--port', String(redisPort), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: ['ignore', 'pipe', 'inherit'] });
children.push(redis);
for (let out = ''; !/Ready to accept connections/.test(out); ) out += (await once(redis.stdout, 'data'))[0];

const env = { ...process.env, PORT: '0', HOST: '127.0.0.1', DECKHAND_POOL_SIZE: '0', DECKHAND_REDIS_URL: `redis://127.0.0.1:${redisPort}`, DECKHAND_CLUSTER_SECRET: randomBytes(32).toString('hex') };
const startNode = () =>
  new Promise((resolve) => {
    const child = spawn('bun', ['packages/server/src/main.ts'], { env, stdio: ['ignore', 'pipe', 'inherit'] });
    children.push(child);
    let out = '';
    child.stdout.on('data', (chunk) => {
      out += chunk;
      const match = out.match(/listening on (http:\/\/\S+)/);
      if (match) resolve(match[1]);
    });
    child.on('exit', (code) => fail(`a node exited early with ${code}`));
  });
const [a, b] = [await startNode(), await startNode()];

const post = async (node, path, body) => {
  const response = await fetch(node + path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const json = await response.json();
  if (!response.ok) fail(`${path} on ${node}: ${response.status} ${JSON.stringify(json)}`);
  return json;
};

const started = await post(a, '/v1/sessions/start', { modelName: 'builtin/offline', browser: { type: 'local', launchOptions: { headless: true } } });
const id = started.data.sessionId;
await post(b, `/v1/sessions/${id}/navigate`, { url: 'data:text/html,<title>through B</title>' });
const relay = new URL(started.data.cdpUrl);
relay.host = new URL(b).host;
const observer = await chromium.connectOverCDP(relay.href).catch((error) => fail(`B's relay to A's session: ${error.message}`));
const title = await observer.contexts()[0].pages()[0].title();
await observer.close();
if (title !== 'through B') fail(`the page seen through B's relay has title ${JSON.stringify(title)}`);
await post(b, `/v1/sessions/${id}/end`, {});

clearTimeout(timer);
for (const child of children) {
  child.removeAllListeners('exit');
  child.kill('SIGKILL');
}
console.log('bun cluster smoke: a session on node A navigated through B and driven over B\'s CDP relay, passed under Bun');
