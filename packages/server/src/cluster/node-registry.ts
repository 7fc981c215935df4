// This node in the registry of nodes: it announces itself (url, capacity, load, draining) with a heartbeat
// that expires, keeps a view of the other nodes from each beat, and marks the sessions of nodes whose
// heartbeat expired as lost (one sweeper at a time).
import { randomUUID } from 'node:crypto';
import type { Logger } from '../logger';
import { keys } from './keys';
import type { RedisLink } from './redis';

/** A beat every 2 s, expiring after 6 s: a dead node is seen by every other within about 8 s (the issue asks 15). */
export const BEAT_MS = 2_000;
export const NODE_TTL_MS = 6_000;
/** Ended and lost sessions stay in the registry this long, so a late request still learns why (410, not 404). */
export const STOPPED_SESSION_TTL_MS = 24 * 60 * 60_000;

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
  /** Called once Redis is reachable again after an outage, before the first beat's view is read: re-register what the node owns. */
  onReconnect: () => Promise<void>;
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
  #needsReconnect = false;

  constructor(
    private readonly redis: RedisLink,
    private readonly options: NodeRegistryOptions,
    private readonly logger: Logger,
  ) {
    redis.onAvailability((available) => {
      if (available) {
        this.#connectedSince = Date.now();
        this.#needsReconnect = true;
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
   * Whether a node's heartbeat has expired, once Redis has been up long enough for every live node to have
   * beaten. A node missing from the view is not judged: it may have joined since the last beat (a node
   * swept or gone has its sessions marked lost or ended in the registry instead).
   */
  isDead(nodeId: string): boolean {
    if (nodeId === this.id) return false;
    if (Date.now() - this.#connectedSince < NODE_TTL_MS + BEAT_MS) return false;
    const info = this.#view.get(nodeId);
    return info !== undefined && info.expiresAt < Date.now();
  }

  /** The node with room and the fewest sessions for its capacity, other than this one; undefined when none has room. */
  leastLoaded(): NodeInfo | undefined {
    const now = Date.now();
    const candidates = [...this.#view.values()].filter((n) => n.id !== this.id && !n.draining && n.expiresAt > now && n.load < n.capacity);
    return candidates.sort((a, b) => a.load / a.capacity - b.load / b.capacity)[0];
  }

  async beat(): Promise<void> {
    try {
      if (this.#needsReconnect) {
        this.#needsReconnect = false;
        await this.options.onReconnect();
      }
      const now = Date.now();
      const entries = await this.redis.run(async (client) => {
        const [, , , all] = await client
          .multi()
          .hSet(keys.node(this.id), { url: this.options.url(), capacity: this.options.capacity, load: this.options.load(), draining: this.draining ? '1' : '0', startedAt: now })
          .pExpire(keys.node(this.id), NODE_TTL_MS)
          .zAdd(keys.nodes, { score: now + NODE_TTL_MS, value: this.id })
          .zRangeWithScores(keys.nodes, 0, -1)
          .exec();
        const listed = all as unknown as Array<{ value: string; score: number }>;
        const hashes = await Promise.all(listed.map(({ value }) => client.hGetAll(keys.node(value))));
        return listed.map(({ value, score }, i) => ({ id: value, score, hash: hashes[i] as Record<string, string> }));
      });
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

  /** Marks the sessions of nodes dead for a whole TTL as lost and drops those nodes, holding the sweep lock. */
  private async sweep(now: number): Promise<void> {
    const dead = [...this.#view.values()].filter((n) => n.id !== this.id && n.expiresAt < now && this.isDead(n.id));
    if (dead.length === 0) return;
    const locked = await this.redis.run((client) => client.set(keys.sweepLock, this.id, { condition: 'NX', expiration: { type: 'PX', value: BEAT_MS } }));
    if (!locked) return;
    for (const node of dead) {
      const sessionIds = await this.redis.run(async (client) => {
        const ids = await client.sMembers(keys.nodeSessions(node.id));
        const reason = `its node (${node.id}) stopped answering; last heartbeat expired at ${new Date(node.expiresAt).toISOString()}`;
        const multi = client.multi();
        for (const id of ids) {
          multi.hSet(keys.session(id), { state: 'lost', reason, endedAt: now, updatedAt: now }).pExpire(keys.session(id), STOPPED_SESSION_TTL_MS);
        }
        await multi.del(keys.nodeSessions(node.id)).del(keys.node(node.id)).zRem(keys.nodes, node.id).exec();
        return ids;
      });
      this.#view.delete(node.id);
      this.logger.warn('cluster node lost: its sessions answer 410 session_lost', { node: node.id, sessions: sessionIds.length });
      await this.options.onNodeLost?.({ nodeId: node.id, sessionIds });
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
