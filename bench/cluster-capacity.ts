// The cluster's capacity run (issue 20): three nodes on a real redis-server with 100 sessions each, and 30
// concurrent clients that send Action and offline natural-language acts on random sessions to a node chosen
// at random (so most requests are forwarded, as behind a plain load balancer), against ONE node without Redis
// holding all the sessions under the same clients, in the same run: phases alternate, round after round.
// Reports acts/s, latency, errors, CPU and memory per node (/proc), Redis CPU and ops/s (INFO), the
// registry's idle ops per node, Redis memory per key (MEMORY USAGE) and Redis's ceiling (redis-benchmark).
// Run: npx tsx bench/cluster-capacity.ts [--quick] [--nodes 3] [--sessions-per-node 100] [--clients 30]
//        [--duration 60] [--rounds 2] [--nl-share 0.5] [--min-free-gib 4] [--out file]
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { fileURLToPath } from 'node:url';
import { ALLOW_FIXTURES, startFixtureServer } from '../test/support/fixture-server.js';
import { startNode, type NodeProcess } from '../test/support/node-process.js';
import { startRedis } from '../test/support/redis-server.js';
import { descendants, memAvailableKiB, treeMemoryKiB } from './support/proc-memory.js';
import { median, percentile } from './support/stats.js';

const argv = process.argv.slice(2);
const quick = argv.includes('--quick');
const option = (name: string, full: number, short: number) => {
  const at = argv.indexOf(`--${name}`);
  return at === -1 ? (quick ? short : full) : Number(argv[at + 1]);
};
const NODES = option('nodes', 3, 3);
const PER_NODE = option('sessions-per-node', 100, 20);
const CLIENTS = option('clients', 30, 30);
const DURATION_S = option('duration', 60, 15);
const ROUNDS = option('rounds', 2, 1);
const NL_SHARE = option('nl-share', 0.5, 0.5);
const MIN_FREE_GIB = option('min-free-gib', 4, 4);
const IDLE_WINDOW_S = quick ? 6 : 20;
const outAt = argv.indexOf('--out');
const OUT = outAt !== -1 ? argv[outAt + 1]! : quick ? undefined : fileURLToPath(new URL('./results/cluster-capacity.md', import.meta.url));
/** What a session costs in memory with a shared browser (bench/results/density.md: 17.6 MiB), with a margin. */
const SESSION_MIB = 25;
const SETUP_CONCURRENCY = 4;
const START_BODY = { modelName: 'builtin/offline', browser: { type: 'local', launchOptions: { headless: true } } };
const ACTION = { input: { selector: '#go', method: 'click', arguments: [], description: 'the Go button' } };
const NATURAL = { input: 'click the Go button' };

const total = NODES * PER_NODE;
/** Both sides alive at once (phases alternate, round after round) when memory allows; else one side after the other. */
const needMiB = (sessions: number, processes: number) => sessions * SESSION_MIB + processes * 400;
const spareMiB = memAvailableKiB() / 1024 - MIN_FREE_GIB * 1024;
const together = spareMiB >= needMiB(2 * total, NODES + 1);
if (spareMiB < needMiB(total, NODES)) {
  throw new Error(`${total} sessions need about ${needMiB(total, NODES)} MiB; only ${Math.round(memAvailableKiB() / 1024)} MiB are available and ${MIN_FREE_GIB} GiB must stay free`);
}

const redis = await startRedis();
const fixtures = await startFixtureServer();
const cli = (args: string[], input?: string) => execFileSync('redis-cli', ['-p', String(redis.port), ...args], { encoding: 'utf8', input, maxBuffer: 64 << 20 });
const info = (section: string) => Object.fromEntries(cli(['INFO', section]).split('\r\n').filter((l) => l.includes(':')).map((l) => [l.slice(0, l.indexOf(':')), l.slice(l.indexOf(':') + 1)]));
const common = {
  DECKHAND_LOG_LEVEL: 'error',
  DECKHAND_IDLE_TIMEOUT_MS: '3600000',
  DECKHAND_MAX_SESSIONS: String(total + 10),
  ...ALLOW_FIXTURES,
};
const clusterEnv = { ...common, DECKHAND_REDIS_URL: redis.url, DECKHAND_CLUSTER_SECRET: randomBytes(32).toString('hex') };
/** Every node started so far, stopped at the end whatever happens. */
const everyNode: NodeProcess[] = [];
const launch = async (env: Record<string, string>) => {
  const node = await startNode(env);
  everyNode.push(node);
  return node;
};

interface Session {
  id: string;
  /** The node it was started on: the one that owns it (Redis says so, checked below). */
  owner: string;
}

async function post(base: string, path: string, body: unknown): Promise<{ status: number; json: any; cache: string | null; retryAfter: number }> {
  const response = await fetch(`${base}/v1/sessions/${path}`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-stream-response': 'false' }, body: JSON.stringify(body) });
  return { status: response.status, json: await response.json(), cache: response.headers.get('browserbase-cache-status'), retryAfter: Number(response.headers.get('retry-after') ?? 0) };
}

/** Setup only: a 503 with retry-after (Redis slow to answer on a starved machine) is retried as a client would. */
async function postRetrying(base: string, path: string, body: unknown): ReturnType<typeof post> {
  for (let attempt = 1; ; attempt++) {
    const reply = await post(base, path, body);
    if (reply.status !== 503 || !reply.retryAfter || attempt === 5) return reply;
    await new Promise((resolve) => setTimeout(resolve, reply.retryAfter * 1000));
  }
}

/** `count` sessions started (and navigated to forms.html) through `node`, a few at a time. */
async function fill(node: NodeProcess, count: number): Promise<Session[]> {
  const made: Session[] = [];
  const worker = async () => {
    while (made.length < count) {
      const slot = made.push({ id: '', owner: node.url }) - 1;
      const start = await postRetrying(node.url, 'start', START_BODY);
      if (start.status !== 200) throw new Error(`start on ${node.url}: ${start.status} ${JSON.stringify(start.json)}`);
      made[slot]!.id = start.json.data.sessionId;
      const nav = await postRetrying(node.url, `${made[slot]!.id}/navigate`, { url: fixtures.url('forms.html') });
      if (nav.status !== 200) throw new Error(`navigate: ${nav.status} ${JSON.stringify(nav.json)}`);
    }
  };
  await Promise.all(Array.from({ length: SETUP_CONCURRENCY }, worker));
  return made;
}

/** CPU seconds (user + system) of a process and of everything it started, from /proc/<pid>/stat. */
function cpuSeconds(pid: number): { own: number; children: number } {
  const ticks = (p: number) => {
    try {
      const stat = readFileSync(`/proc/${p}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      return Number(fields[11]) + Number(fields[12]); // utime, stime
    } catch {
      return 0; // Ended meanwhile.
    }
  };
  return { own: ticks(pid) / 100, children: descendants(pid).reduce((sum, p) => sum + ticks(p), 0) / 100 };
}
const redisCpu = () => {
  const cpu = info('cpu');
  return Number(cpu.used_cpu_sys) + Number(cpu.used_cpu_user);
};
const redisCommands = () => Number(info('stats').total_commands_processed);
const loadAverage = () => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');

interface Phase {
  acts: number;
  seconds: number;
  times: { action: number[]; natural: number[] };
  forwarded: number[];
  local: number[];
  errors: string[];
  cacheHits: number;
  cpu: Array<{ own: number; children: number }>;
  redisCpu: number;
  redisOps: number;
  load: string;
}

/** CLIENTS loops for DURATION_S, each sending acts on random sessions to a random one of `targets`. */
async function run(targets: NodeProcess[], sessions: Session[]): Promise<Phase> {
  const phase: Phase = { acts: 0, seconds: 0, times: { action: [], natural: [] }, forwarded: [], local: [], errors: [], cacheHits: 0, cpu: [], redisCpu: 0, redisOps: 0, load: '' };
  const cpuBefore = targets.map((node) => cpuSeconds(node.pid));
  const [redisCpuBefore, redisOpsBefore] = [redisCpu(), redisCommands()];
  const t0 = performance.now();
  const deadline = t0 + DURATION_S * 1000;
  const client = async () => {
    while (performance.now() < deadline) {
      const session = sessions[Math.floor(Math.random() * sessions.length)]!;
      const target = targets[Math.floor(Math.random() * targets.length)]!;
      const natural = Math.random() < NL_SHARE;
      const started = performance.now();
      try {
        const { status, json, cache } = await post(target.url, `${session.id}/act`, natural ? NATURAL : ACTION);
        const ms = performance.now() - started;
        if (status !== 200 || json.success !== true || json.data?.result?.success !== true) {
          phase.errors.push(`${status} ${JSON.stringify(json).slice(0, 300)}`);
          continue;
        }
        phase.acts++;
        if (cache === 'HIT') phase.cacheHits++;
        (natural ? phase.times.natural : phase.times.action).push(ms);
        (target.url === session.owner ? phase.local : phase.forwarded).push(ms);
      } catch (error) {
        const cause = (error as { cause?: { code?: string; message?: string } }).cause;
        phase.errors.push(`${String(error)}${cause ? ` (${cause.code ?? cause.message})` : ''}`);
      }
    }
  };
  await Promise.all(Array.from({ length: CLIENTS }, client));
  phase.seconds = (performance.now() - t0) / 1000;
  phase.cpu = targets.map((node, i) => {
    const after = cpuSeconds(node.pid);
    return { own: (after.own - cpuBefore[i]!.own) / phase.seconds, children: (after.children - cpuBefore[i]!.children) / phase.seconds };
  });
  phase.redisCpu = (redisCpu() - redisCpuBefore) / phase.seconds;
  // INFO itself is a command Redis counts: two per phase, nothing against thousands.
  phase.redisOps = (redisCommands() - redisOpsBefore) / phase.seconds;
  phase.load = loadAverage();
  return phase;
}

const lines: string[] = [];
const log = (line = '') => {
  console.log(line);
  lines.push(line);
};
const fmt = (n: number, digits = 0) => (Number.isFinite(n) ? n.toFixed(digits) : '—');
const mib = (kib: number) => fmt(kib / 1024);

/** Kills nodes, then the browsers they started, by pid (a killed node cannot close them). */
async function stopNodes(list: NodeProcess[]): Promise<void> {
  const browsers = list.flatMap((node) => descendants(node.pid));
  await Promise.all(list.map((node) => node.stop('SIGKILL')));
  for (const pid of browsers) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // Already gone.
    }
  }
}

/** Memory of each node after setup and after the load. */
const memory = new Map<NodeProcess, { setup: ReturnType<typeof treeMemoryKiB>; load?: ReturnType<typeof treeMemoryKiB> }>();
/** CPU (cores) of each node and its browsers with sessions open and no request: what is not the acts' cost. */
const idleCpu = new Map<NodeProcess, { own: number; children: number }>();
/** Waits IDLE_WINDOW_S and answers the seconds it really took (a starved machine wakes timers late). */
async function idleWindow(list: NodeProcess[]): Promise<number> {
  const before = list.map((node) => cpuSeconds(node.pid));
  const t0 = performance.now();
  await new Promise((resolve) => setTimeout(resolve, IDLE_WINDOW_S * 1000));
  const seconds = (performance.now() - t0) / 1000;
  list.forEach((node, i) => {
    const after = cpuSeconds(node.pid);
    idleCpu.set(node, { own: (after.own - before[i]!.own) / seconds, children: (after.children - before[i]!.children) / seconds });
  });
  return seconds;
}
const phases = { cluster: [] as Phase[], alone: [] as Phase[] };
const report = (which: 'cluster' | 'alone', round: number, phase: Phase) => {
  phases[which].push(phase);
  console.error(`round ${round + 1} ${which}: ${phase.acts} acts in ${fmt(phase.seconds, 1)} s, ${phase.errors.length} errors, load ${phase.load}`);
};

try {
  const loadAtStart = loadAverage();
  const nodes = await Promise.all(Array.from({ length: NODES }, () => launch(clusterEnv)));
  let alone = together ? await launch(common) : undefined;
  const redisMemoryEmpty = Number(info('memory').used_memory);
  const clusterSessions = (await Promise.all(nodes.map((node) => fill(node, PER_NODE)))).flat();
  let aloneSessions = alone ? await fill(alone, total) : [];
  const redisMemoryFull = Number(info('memory').used_memory);

  // Correctness of placement: each session's registry entry names the node it was started on.
  const owners = cli([], clusterSessions.map((s) => `HGET deckhand:session:${s.id} url\n`).join('')).trim().split('\n');
  const misplaced = clusterSessions.filter((s, i) => owners[i] !== s.owner).length;
  if (misplaced > 0) throw new Error(`${misplaced} sessions are not owned by the node they were started on`);

  // With no requests: what the heartbeats and the registry cost Redis per node.
  cli(['CONFIG', 'RESETSTAT']);
  const idleSeconds = await idleWindow([...nodes, ...(alone ? [alone] : [])]);
  const idleStats = [...cli(['INFO', 'commandstats']).matchAll(/cmdstat_([a-z|]+):calls=(\d+)/g)].filter(([, name]) => !['config|resetstat', 'info'].includes(name!));
  const idleOps = idleStats.reduce((sum, [, , calls]) => sum + Number(calls), 0) / idleSeconds / NODES;
  const idleByName = idleStats.map(([, name, calls]) => `${name} ${fmt(Number(calls) / idleSeconds / NODES, 2)}`).join(', ');

  for (const node of [...nodes, ...(alone ? [alone] : [])]) memory.set(node, { setup: treeMemoryKiB(node.pid) });
  for (let round = 0; round < ROUNDS; round++) {
    // Alternate which goes first, so a drift in the machine's load falls on both.
    const order = round % 2 === 0 ? (['cluster', 'alone'] as const) : (['alone', 'cluster'] as const);
    for (const which of order) {
      if (which === 'cluster') report(which, round, await run(nodes, clusterSessions));
      else if (alone) report(which, round, await run([alone], aloneSessions));
    }
  }
  for (const node of [...nodes, ...(alone ? [alone] : [])]) memory.get(node)!.load = treeMemoryKiB(node.pid);

  // Redis memory per key, on the keys this run made.
  const sample = clusterSessions.slice(0, 50).map((s) => `deckhand:session:${s.id}`);
  const usage = (key: string) => Number(cli(['MEMORY', 'USAGE', key]).trim());
  const perSessionHash = sample.reduce((sum, key) => sum + usage(key), 0) / sample.length;
  const nodeIds = cli(['ZRANGE', 'deckhand:nodes', '0', '-1']).trim().split('\n');
  const nodeHash = usage(`deckhand:node:${nodeIds[0]}`);
  const nodeSessionsSet = usage(`deckhand:node-sessions:${nodeIds[0]}`);
  const cacheKeys = cli(['--scan', '--pattern', 'deckhand:cache:*']).trim().split('\n').filter(Boolean);
  const cacheEntry = cacheKeys.length > 0 ? usage(cacheKeys[0]!) : Number.NaN;

  // Redis's ceiling on this box for the reads a forwarded request and a heartbeat make, against the real keys.
  const benchmark = (label: string, command: string[]) => {
    const out = execFileSync('redis-benchmark', ['-p', String(redis.port), '-q', '-n', '50000', '-c', String(CLIENTS), ...command], { encoding: 'utf8' });
    const rps = /([\d.]+) requests per second/.exec(out)?.[1];
    const p50 = /p50=([\d.]+)/.exec(out)?.[1];
    return `| ${label} | ${fmt(Number(rps))} | ${p50 ?? '—'} |`;
  };
  const ceiling = [
    benchmark('`HGETALL` of a session hash (a forwarded request\'s owner lookup)', ['HGETALL', sample[0]!]),
    benchmark('`HGETALL` of a node hash (the heartbeat view, per node)', ['HGETALL', `deckhand:node:${nodeIds[0]}`]),
    ...(cacheKeys.length > 0 ? [benchmark('`GET` of an act cache entry (a natural-language act not in the node\'s memory)', ['GET', cacheKeys[0]!])] : []),
  ];

  if (!alone) {
    await stopNodes(nodes);
    alone = await launch(common);
    aloneSessions = await fill(alone, total);
    await idleWindow([alone]);
    memory.set(alone, { setup: treeMemoryKiB(alone.pid) });
    for (let round = 0; round < ROUNDS; round++) report('alone', round, await run([alone], aloneSessions));
    memory.get(alone)!.load = treeMemoryKiB(alone.pid);
  }

  const all = (list: Phase[]) => ({
    acts: list.reduce((s, p) => s + p.acts, 0),
    seconds: list.reduce((s, p) => s + p.seconds, 0),
    action: list.flatMap((p) => p.times.action),
    natural: list.flatMap((p) => p.times.natural),
    every: list.flatMap((p) => [...p.times.action, ...p.times.natural]),
    forwarded: list.flatMap((p) => p.forwarded),
    local: list.flatMap((p) => p.local),
    errors: list.flatMap((p) => p.errors),
    hits: list.reduce((s, p) => s + p.cacheHits, 0),
    cpu: list[0]!.cpu.map((_, i) => ({ own: list.reduce((s, p) => s + p.cpu[i]!.own, 0) / list.length, children: list.reduce((s, p) => s + p.cpu[i]!.children, 0) / list.length })),
    redisCpu: list.reduce((s, p) => s + p.redisCpu, 0) / list.length,
    redisOps: list.reduce((s, p) => s + p.redisOps, 0) / list.length,
    perRound: list.map((p) => fmt(p.acts / p.seconds, 1)).join(', '),
    load: list.map((p) => p.load.split(' ')[0]).join(', '),
  });
  const c = all(phases.cluster);
  const a = all(phases.alone);

  log(`# bench/cluster-capacity.ts (${new Date().toISOString().slice(0, 16)} UTC)`);
  log();
  log(`\`npx tsx bench/cluster-capacity.ts ${argv.join(' ')}\`: ${NODES} nodes × ${PER_NODE} sessions on one redis-server against one node without Redis × ${total} sessions, ${CLIENTS} concurrent clients, ${ROUNDS} round(s) of ${DURATION_S} s per side, ${together ? 'both sides live, phases alternating' : 'the cluster side first, then (its nodes stopped) the one node, memory being short for both at once'}; acts on random sessions of \`forms.html\`, ${fmt(NL_SHARE * 100)} % natural-language (\`builtin/offline\`, act cache on as by default), the rest Action acts (\`#go\` click). Machine: ${cpus().length} cores, ${fmt(Number(/MemTotal:\s+(\d+)/.exec(readFileSync('/proc/meminfo', 'utf8'))![1]) / 1048576)} GiB, shared with other engineers' test runs; load average (1, 5, 15 min) ${loadAtStart} at the start, 1-min after each phase: cluster ${c.load}; one node ${a.load}.`);
  log();
  log('| | acts | acts/s (per round) | median ms | p95 ms | Action median / p95 | NL median / p95 | forwarded: share, median / p95 | not forwarded: median / p95 | cache hits | errors |');
  log('|---|---:|---|---:|---:|---|---|---|---|---:|---:|');
  for (const [name, r] of [[`${NODES} nodes, Redis`, c], ['one node, no Redis', a]] as const) {
    const pair = (v: number[]) => `${fmt(median(v))} / ${fmt(percentile(v, 0.95))}`;
    log(`| ${name} | ${r.acts} | ${fmt(r.acts / r.seconds, 1)} (${r.perRound}) | ${fmt(median(r.every))} | ${fmt(percentile(r.every, 0.95))} | ${pair(r.action)} | ${pair(r.natural)} | ${fmt((100 * r.forwarded.length) / Math.max(1, r.acts))} %, ${pair(r.forwarded)} | ${pair(r.local)} | ${fmt((100 * r.hits) / Math.max(1, r.natural.length))} % of NL | ${r.errors.length} |`);
  }
  log();
  log('CPU while loaded (cores: CPU seconds per second of the phase, /proc/<pid>/stat), memory (server RSS + PSS of its browsers, /proc, after setup → after the load):');
  log();
  log('| process | server CPU idle → loaded | its browsers CPU idle → loaded | server RSS MiB | browsers PSS MiB |');
  log('|---|---|---|---|---|');
  [...nodes, alone].forEach((node, i) => {
    const cpu = i < NODES ? c.cpu[i]! : a.cpu[0]!;
    const { setup, load } = memory.get(node)!;
    const idle = idleCpu.get(node)!;
    log(`| ${i < NODES ? `node ${i + 1} (${PER_NODE} sessions)` : `one node (${total} sessions)`} | ${fmt(idle.own, 2)} → ${fmt(cpu.own, 2)} | ${fmt(idle.children, 2)} → ${fmt(cpu.children, 2)} | ${mib(setup.serverRss)} → ${mib(load!.serverRss)} | ${mib(setup.childrenPss)} → ${mib(load!.childrenPss)} |`);
  });
  log(`| redis-server, during the cluster phases | ${fmt(c.redisCpu, 3)} | — | — | — |`);
  log();
  /** CPU milliseconds an act costs the servers and the browsers: loaded CPU less idle CPU, over acts/s. */
  const perAct = (r: typeof c, list: NodeProcess[], field: 'own' | 'children') =>
    fmt((1000 * r.cpu.reduce((sum, cpu, i) => sum + cpu[field] - idleCpu.get(list[i]!)![field], 0)) / (r.acts / r.seconds));
  log(`CPU per act (loaded less idle CPU, over acts/s): ${NODES} nodes ${perAct(c, nodes, 'own')} ms in the servers, ${perAct(c, nodes, 'children')} ms in the browsers; one node ${perAct(a, [alone], 'own')} ms in the server, ${perAct(a, [alone], 'children')} ms in the browsers.`);
  log();
  log(`Redis during the cluster phases: ${fmt(c.redisOps)} commands/s for ${fmt(c.acts / c.seconds, 1)} acts/s (${fmt(c.redisOps / (c.acts / c.seconds), 2)} per act, heartbeats included). Idle (${fmt(idleSeconds, 1)} s, no requests): ${fmt(idleOps, 2)} commands/s per node (${idleByName}).`);
  log();
  log(`Redis memory (\`MEMORY USAGE\` on this run's keys; \`used_memory\` before and after the ${total} sessions were registered): a session hash ${fmt(perSessionHash)} B (mean of ${sample.length}); all of a session's registry (hash + its member of the node's set) ${fmt((redisMemoryFull - redisMemoryEmpty) / total)} B by \`used_memory\`; a node hash ${nodeHash} B; a node's session set with ${PER_NODE} members ${nodeSessionsSet} B; an act cache entry ${fmt(cacheEntry)} B (${cacheKeys.length} in Redis after the run).`);
  log();
  log(`Redis's ceiling on this box, on the same keys (\`redis-benchmark -q -n 50000 -c ${CLIENTS} <command>\`, run after the phases with the nodes idle):`);
  log();
  log('| command | requests/s | p50 ms |');
  log('|---|---:|---:|');
  for (const row of ceiling) log(row);
  for (const [name, r] of [['cluster', c], ['one node', a]] as const) {
    if (r.errors.length === 0) continue;
    // Grouped by what they say (status and message, ids cut), so a rare kind is not lost among a common one.
    const kinds = new Map<string, number>();
    for (const error of r.errors) {
      const kind = error.replace(/"actions":.*$/, '').replace(/[0-9a-f]{8}-[0-9a-f-]{27}/g, '<id>').slice(0, 240);
      kinds.set(kind, (kinds.get(kind) ?? 0) + 1);
    }
    log(`\nErrors (${name}), by kind:\n${[...kinds].sort((x, y) => y[1] - x[1]).map(([kind, count]) => `- ${count} × ${kind}`).join('\n')}`);
  }
  if (OUT) writeFileSync(OUT, `${lines.join('\n')}\n`);
} finally {
  await stopNodes(everyNode);
  await redis.stop();
  await fixtures.close();
}
