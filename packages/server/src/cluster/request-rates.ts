// A project's request rate in Redis: the token bucket of core's TokenBuckets (rate a second, a burst of
// two seconds' worth, at least one), refilled and taken in one Lua script on Redis's clock, so requests
// spread over the nodes count together. With Redis down each node counts on its own meanwhile.
import { TokenBuckets } from '@deckhand/core';
import type { ProjectRates } from '../rate-limit';
import { keys } from './keys';
import type { RedisLink } from './redis';

/** KEYS[1] the project's bucket; ARGV rate. 0 when a token was taken, else whole seconds to wait. */
const TAKE = `local t = redis.call('TIME') local now = tonumber(t[1]) * 1000 + tonumber(t[2]) / 1000
local rate = tonumber(ARGV[1])
local burst = math.max(1, math.ceil(2 * rate))
local b = redis.call('HMGET', KEYS[1], 'tokens', 'at')
local tokens = tonumber(b[1]) or burst
local at = tonumber(b[2]) or now
tokens = math.min(burst, tokens + (now - at) / 1000 * rate)
local wait = 0
if tokens < 1 then wait = math.max(1, math.ceil((1 - tokens) / rate)) else tokens = tokens - 1 end
redis.call('HSET', KEYS[1], 'tokens', tostring(tokens), 'at', tostring(now))
redis.call('PEXPIRE', KEYS[1], math.ceil(burst / rate * 1000) + 1000)
return wait`;

export function redisProjectRates(redis: RedisLink): ProjectRates {
  const local = new TokenBuckets();
  return {
    async take(projectId, rate) {
      if (!redis.available) return local.take(projectId, rate);
      try {
        const wait = await redis.run((client) => client.eval(TAKE, { keys: [keys.projectRate(projectId)], arguments: [String(rate)] }));
        return wait === 0 ? undefined : Number(wait);
      } catch {
        return local.take(projectId, rate);
      }
    },
  };
}
