// What the navigation policy's proxy costs a page load: the same page (50 images and a 1 MiB script,
// nothing cached) loaded by a headless Chromium going direct and going through startPolicyProxy.
// Run: npx tsx bench/policy-proxy.ts [rounds]
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { chromium } from 'playwright-core';
import { findChromium } from '../packages/core/src/browser/chromium/chromium-path.js';
import { OPEN_LOOPBACK_POLICY } from '../packages/core/src/network/network-policy.js';
import { startPolicyProxy } from '../packages/core/src/network/policy-proxy.js';

const rounds = Number(process.argv[2] ?? 20);
const IMAGES = 50;
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=', 'base64');
const SCRIPT = `window.filler = "${'x'.repeat(1024 * 1024)}";`;
const PAGE = `<!doctype html><title>bench</title><script src="/big.js"></script>${Array.from({ length: IMAGES }, (_, i) => `<img src="/img/${i}.png">`).join('')}`;

const server = createServer((req, res) => {
  const headers = { 'cache-control': 'no-store' };
  if (req.url === '/') res.writeHead(200, { ...headers, 'content-type': 'text/html' }).end(PAGE);
  else if (req.url === '/big.js') res.writeHead(200, { ...headers, 'content-type': 'text/javascript' }).end(SCRIPT);
  else res.writeHead(200, { ...headers, 'content-type': 'image/png' }).end(PNG);
});
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
const proxy = await startPolicyProxy(OPEN_LOOPBACK_POLICY);

// Both browsers load in alternation, so a busy machine slows both alike.
const variants = [
  { name: 'direct', args: [] as string[] },
  { name: 'policy proxy', args: [`--proxy-server=${proxy.url}`, '--proxy-bypass-list=<-loopback>'] },
];
const runs = await Promise.all(
  variants.map(async ({ name, args }) => {
    const browser = await chromium.launch({ executablePath: findChromium(true), args: ['--no-sandbox', ...args] });
    const page = await browser.newPage();
    await page.goto(url);
    return { name, browser, page, times: [] as number[] };
  }),
);
for (let round = 0; round < rounds; round++) {
  for (const run of runs) {
    const started = performance.now();
    await run.page.goto(url, { waitUntil: 'load' });
    run.times.push(performance.now() - started);
  }
}
for (const { name, browser, times } of runs) {
  await browser.close();
  const sorted = times.sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)]!;
  console.log(`${name.padEnd(13)} load median ${median.toFixed(1)} ms  (min ${sorted[0]!.toFixed(1)}, max ${sorted.at(-1)!.toFixed(1)}, n=${rounds})`);
}

await proxy.close();
server.close();
