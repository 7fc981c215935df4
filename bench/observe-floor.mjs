// How much of an observe over HTTP is the HTTP round trip: a running server (start it yourself, e.g.
// `PORT=3302 npm start`, and serve test/fixtures on a loopback port) is asked, one after the other with a
// random pause, for /healthz, a POST it refuses (400: validation, no browser), and an observe of forms.html.
// Medians of 80 calls each. Run: node bench/observe-floor.mjs [api-port] [fixtures-port]
const [apiPort = '3302', fixturesPort = '8767'] = process.argv.slice(2);
const api = `http://127.0.0.1:${apiPort}`;
const post = async (path, body) => {
  const reply = await fetch(`${api}/v1${path}`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-stream-response': 'false' }, body: JSON.stringify(body) });
  return reply.json();
};
const median = async (call, n = 80) => {
  const times = [];
  for (let i = 0; i < n; i++) {
    await new Promise((resolve) => setTimeout(resolve, 30 + Math.random() * 17));
    const start = performance.now();
    await call();
    times.push(performance.now() - start);
  }
  return times.sort((a, b) => a - b)[n >> 1].toFixed(2);
};
const id = (await post('/sessions/start', { modelName: 'builtin/offline', browser: { type: 'local', launchOptions: { headless: true } } })).data.sessionId;
await post(`/sessions/${id}/navigate`, { url: `http://127.0.0.1:${fixturesPort}/forms.html` });
console.log(`GET /healthz: ${await median(() => fetch(`${api}/healthz`).then((r) => r.text()))} ms`);
console.log(`observe refused (400): ${await median(() => post(`/sessions/${id}/observe`, { instruction: 5 }))} ms`);
console.log(`observe, no instruction: ${await median(() => post(`/sessions/${id}/observe`, {}))} ms`);
await post(`/sessions/${id}/end`, {});
