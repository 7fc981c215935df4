// A project's session slots in Redis, so the nodes together never exceed its limit: one ZSET per
// project, a member per live session scored with its expiry on Redis's clock. A take drops expired
// members, counts and adds in one Lua script (atomic); the node renews its members every RENEW_MS, so
// the slots of a node that died expire within SLOT_TTL_MS, and re-adds them after Redis lost them.
import { randomUUID } from 'node:crypto';
import type { ProjectSlot, ProjectSlots } from '@deckhand/core';
import { keys } from './keys';
import type { RedisLink } from './redis';

/** How long a slot outlives the last renewal of its node: the 15 s for a dead node's quota. */
export const SLOT_TTL_MS = 15_000;
const RENEW_MS = 5_000;

const NOW = `local t = redis.call('TIME') local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)`;

/** KEYS[1] the project's slots; ARGV limit, slot id, ttl. 1 when taken, 0 when full. */
const TAKE = `${NOW}
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[1]) then return 0 end
redis.call('ZADD', KEYS[1], now + tonumber(ARGV[3]), ARGV[2])
redis.call('PEXPIRE', KEYS[1], ARGV[3])
return 1`;

/** KEYS the projects' slot sets; ARGV[1] ttl, then one slot id per key: each slot's expiry moved on. */
const RENEW = `${NOW}
for i, key in ipairs(KEYS) do
  redis.call('ZADD', key, now + tonumber(ARGV[1]), ARGV[i + 1])
  redis.call('PEXPIRE', key, ARGV[1])
end
return #KEYS`;

export class RedisProjectSlots implements ProjectSlots {
  /** Slots this node holds: slot id → project. */
  readonly #held = new Map<string, string>();
  readonly #timer: NodeJS.Timeout;

  constructor(private readonly redis: RedisLink) {
    this.#timer = setInterval(() => void this.#renew(), RENEW_MS);
    this.#timer.unref();
  }

  async take(projectId: string, limit: number): Promise<ProjectSlot | undefined> {
    const id = randomUUID();
    const taken = await this.redis.run((client) => client.eval(TAKE, { keys: [keys.projectSlots(projectId)], arguments: [String(limit), id, String(SLOT_TTL_MS)] }));
    if (taken !== 1) return undefined;
    this.#held.set(id, projectId);
    return { release: () => this.#release(id) };
  }

  close(): void {
    clearInterval(this.#timer);
  }

  async #release(id: string): Promise<void> {
    const projectId = this.#held.get(id);
    if (projectId === undefined) return;
    this.#held.delete(id);
    // With Redis down the slot expires by itself (it is no longer renewed).
    await this.redis.run((client) => client.zRem(keys.projectSlots(projectId), id)).catch(() => undefined);
  }

  async #renew(): Promise<void> {
    if (this.#held.size === 0 || !this.redis.available) return;
    const held = [...this.#held];
    await this.redis
      .run((client) => client.eval(RENEW, { keys: held.map(([, projectId]) => keys.projectSlots(projectId)), arguments: [String(SLOT_TTL_MS), ...held.map(([id]) => id)] }))
      .catch(() => undefined);
  }
}
