// This node in the registry of nodes: it announces itself (url, capacity, load, draining) with a heartbeat
// that expires, keeps a view of the other nodes from each beat, marks the sessions of nodes whose
// heartbeat is long gone as lost (one sweeper at a time), and re-claims its own if it was swept while alive.
import { randomUUID } from 'node:crypto';
import type { Logger } from '../logger';
import { keys } from './keys';
import type { RedisLink } from './redis';

/** A beat every 2 s, expiring after 6 s. */
export const BEAT_MS = 2_000;
export const NODE_TTL_MS = 6_000;
/**
 * How long past its heartbeat's expiry a node is judged dead: a node starved of CPU may miss 10 s of beats
 * before it is swept, and a dead one is still seen by every other within about 12 s (the issue asks 15).
 */
export const DEATH_GRACE_MS = 4_000;
/** Ended and lost sessions stay in the registry this long, so a late request still learns why (410, not 404). */
export const STOPPED_SESSION_TTL_MS = 24 * 60 * 60_000;

/**
 * KEYS the nodes, the node's hash, its sessions; ARGV node id, dead before (ms), reason, now, stopped TTL,
 * the session key prefix. In one step with the check that the node is still dead, so a node that beat in
 * the meantime is never swept; only sessions still running are marked lost. Their ids, or nil when alive.
 */
const SWEEP = `local score = redis.call('ZSCORE', KEYS[1], ARGV[1])
if not score or tonumber(score) >= tonumber(ARGV[2]) then return nil end
local lost = {}
for _, id in ipairs(redis.call('SMEMBERS', KEYS[3])) do
  local key = ARGV[6] .. id
  if redis.call('HGET', key, 'state') == 'running' then
    redis.call('HSET', key, 'state', 'lost', 'reason', ARGV[3], 'endedAt', ARGV[4], 'updatedAt', ARGV[4])
    redis.call('PEXPIRE', key, ARGV[5])
    lost[#lost + 1] = id
  end
end
redis.call('DEL', KEYS[3], KEYS[2])
redis.call('ZREM', KEYS[1], ARGV[1])
return lost`;

export interface NodeInfo {
  id: string;
  url: string;
  capacity: number;
  load: number;
  draining: boolean;
  /** When its heartbeat expires (ms since the epoch). */
  expiresAt: number;
}

export interface NodeLoss {
  nodeId: string;
  /** The sessions it owned, now marked lost. */
  sessionIds: string[];
}

export interface NodeRegistryOptions {
  /** This node's internal URL (known once it listens). */
  url: () => string;
  capacity: number;
  /** Sessions held now (live and starting). */
  load: () => number;
  /**
   * Writes again what the node holds (its live sessions, ends not yet written): called after a beat finds
   * the node's entry gone (swept while alive, or Redis restarted empty) and after a Redis outage.
   */
  reclaim: () => Promise<void>;
  /** Called by the node that swept a dead node (quota slots and other per-session state to release). */
  onNodeLost?: (loss: NodeLoss) => Promise<void>;
}

export class NodeRegistry {
  readonly id = randomUUID();
  draining = false;
  #view = new Map<string, NodeInfo>();
  #timer?: NodeJS.Timeout;
  /** Since when Redis has been reachable without a break: no node is judged dead before every node had a chance to beat again. */
  #connectedSince = 0;
  #needsReclaim = false;
  /** Whether a beat has written this node's entry: from then on, an entry found missing was swept or lost by Redis. */
  #announced = false;

  constructor(
    private readonly redis: RedisLink,
    private readonly options: NodeRegistryOptions,
    private readonly logger: Logger,
  ) {
    redis.onAvailability((available) => {
      if (available) {
        this.#connectedSince = Date.now();
        this.#needsReclaim = true;
        void this.beat();
      }
    });
  }

  start(): void {
    this.#connectedSince = Date.now();
    void this.beat();
    this.#timer = setInterval(() => void this.beat(), BEAT_MS);
    this.#timer.unref();
  }

  /** Another live node by id (this one included), as of the last beat. */
  node(nodeId: string): NodeInfo | undefined {
    return this.#view.get(nodeId);
  }

  /**
   * Whether a node's heartbeat expired more than DEATH_GRACE_MS ago, once Redis has been up long enough for
   * every live node to have beaten. A node missing from the view is not judged: it may have joined since
   * the last beat (a node swept or gone has its sessions marked lost or ended in the registry instead).
   */
  isDead(nodeId: string): boolean {
    if (nodeId === this.id) return false;
    if (Date.now() - this.#connectedSince < NODE_TTL_MS + BEAT_MS) return false;
    const info = this.#view.get(nodeId);
    return info !== undefined && info.expiresAt + DEATH_GRACE_MS < Date.now();
  }

  /** The node with room and the fewest sessions for its capacity, other than this one; undefined when none has room. */
  leastLoaded(): NodeInfo | undefined {
    const now = Date.now();
    const candidates = [...this.#view.values()].filter((n) => n.id !== this.id && !n.draining && n.expiresAt > now && n.load < n.capacity);
    return candidates.sort((a, b) => a.load / a.capacity - b.load / b.capacity)[0];
  }

  async beat(): Promise<void> {
    try {
      const now = Date.now();
      // The heartbeat goes first, whatever else this beat has to do: nothing may hold it back.
      const { registered, entries } = await this.redis.run(async (client) => {
        const [score, , , , all] = await client
          .multi()
          .zScore(keys.nodes, this.id)
          .hSet(keys.node(this.id), { url: this.options.url(), capacity: this.options.capacity, load: this.options.load(), draining: this.draining ? '1' : '0', startedAt: now })
          .pExpire(keys.node(this.id), NODE_TTL_MS)
          .zAdd(keys.nodes, { score: now + NODE_TTL_MS, value: this.id })
          .zRangeWithScores(keys.nodes, 0, -1)
          .exec();
        const listed = all as unknown as Array<{ value: string; score: number }>;
        const hashes = await Promise.all(listed.map(({ value }) => client.hGetAll(keys.node(value))));
        return { registered: score !== null, entries: listed.map(({ value, score }, i) => ({ id: value, score, hash: hashes[i] as Record<string, string> })) };
      });
      if (!registered && this.#announced) {
        this.logger.warn('cluster: this node was declared dead while it lived (or Redis lost its entry); re-claiming its sessions', { node: this.id });
        this.#needsReclaim = true;
      }
      this.#announced = true;
      if (this.#needsReclaim) {
        this.#needsReclaim = false;
        await this.options.reclaim().catch((error: unknown) => {
          this.#needsReclaim = true;
          this.logger.debug('cluster re-claim failed; the next beat tries again', { detail: error instanceof Error ? error.message : String(error) });
        });
      }
      const view = new Map<string, NodeInfo>();
      for (const { id, score, hash } of entries) {
        view.set(id, { id, url: hash.url ?? '', capacity: Number(hash.capacity ?? 0), load: Number(hash.load ?? 0), draining: hash.draining === '1', expiresAt: score });
      }
      this.#view = view;
      await this.sweep(now);
    } catch (error) {
      // Redis down: the link has said so; the next beat tries again.
      this.logger.debug('cluster heartbeat failed', { detail: error instanceof Error ? error.message : String(error) });
    }
  }

  /** Marks the sessions of dead nodes as lost and drops those nodes, holding the sweep lock. */
  private async sweep(now: number): Promise<void> {
    const dead = [...this.#view.values()].filter((n) => this.isDead(n.id));
    if (dead.length === 0) return;
    const locked = await this.redis.run((client) => client.set(keys.sweepLock, this.id, { condition: 'NX', expiration: { type: 'PX', value: BEAT_MS } }));
    if (!locked) return;
    for (const node of dead) {
      const reason = `its node (${node.id}) stopped answering; last heartbeat expired at ${new Date(node.expiresAt).toISOString()}`;
      const sessionIds = await this.redis.run((client) =>
        client.eval(SWEEP, {
          keys: [keys.nodes, keys.node(node.id), keys.nodeSessions(node.id)],
          arguments: [node.id, String(Date.now() - DEATH_GRACE_MS), reason, String(now), String(STOPPED_SESSION_TTL_MS), keys.session('')],
        }),
      );
      this.#view.delete(node.id);
      // It beat again since this view was read: alive after all, nothing swept.
      if (!Array.isArray(sessionIds)) continue;
      this.logger.warn('cluster node lost: its sessions answer 410 session_lost', { node: node.id, sessions: sessionIds.length });
      await this.options.onNodeLost?.({ nodeId: node.id, sessionIds: sessionIds as string[] });
    }
  }

  /** Leaves the registry (drain done): the node's sessions are already ended. */
  async leave(): Promise<void> {
    clearInterval(this.#timer);
    await this.redis
      .run((client) => client.multi().zRem(keys.nodes, this.id).del(keys.node(this.id)).del(keys.nodeSessions(this.id)).exec())
      .catch(() => undefined);
  }

  stop(): void {
    clearInterval(this.#timer);
  }
}
