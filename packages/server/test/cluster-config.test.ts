// The cluster's settings (DECKHAND_REDIS_URL, DECKHAND_CLUSTER_SECRET, DECKHAND_NODE_URL): absent, no
// cluster; present, the secret is required and long enough; messages never repeat the URL or the secret.
import { describe, expect, it } from 'vitest';
import { loadServerConfig } from '../src/config';

const SECRET = 's'.repeat(32);
const REDIS = 'redis://:hunter2-password@10.0.0.9:6379/0';

describe('cluster settings', () => {
  it('are absent without DECKHAND_REDIS_URL (one process, in memory)', () => {
    expect(loadServerConfig({}).cluster).toBeUndefined();
  });

  it('need DECKHAND_REDIS_URL for the secret or node URL to mean anything', () => {
    expect(() => loadServerConfig({ DECKHAND_CLUSTER_SECRET: SECRET })).toThrow(/only mean something with DECKHAND_REDIS_URL/);
  });

  it('read the URL, the secret, the node URL, the drain period and the forward deadline', () => {
    expect(
      loadServerConfig({ DECKHAND_REDIS_URL: REDIS, DECKHAND_CLUSTER_SECRET: SECRET, DECKHAND_NODE_URL: 'http://10.0.0.5:3000/', DECKHAND_DRAIN_MS: '5000', DECKHAND_FORWARD_DEADLINE_MS: '2500' }).cluster,
    ).toEqual({
      redisUrl: REDIS,
      secret: SECRET,
      nodeUrl: 'http://10.0.0.5:3000',
      drainMs: 5000,
      forwardDeadlineMs: 2500,
    });
    expect(loadServerConfig({ DECKHAND_REDIS_URL: REDIS, DECKHAND_CLUSTER_SECRET: SECRET }).cluster?.forwardDeadlineMs).toBe(5000);
    expect(() => loadServerConfig({ DECKHAND_REDIS_URL: REDIS, DECKHAND_CLUSTER_SECRET: SECRET, DECKHAND_FORWARD_DEADLINE_MS: '0' })).toThrow(/DECKHAND_FORWARD_DEADLINE_MS/);
  });

  it('refuse a missing or short secret and a malformed URL, without repeating either', () => {
    for (const env of [
      { DECKHAND_REDIS_URL: REDIS },
      { DECKHAND_REDIS_URL: REDIS, DECKHAND_CLUSTER_SECRET: 'short-secret-value' },
      { DECKHAND_REDIS_URL: 'http://:hunter2-password@x', DECKHAND_CLUSTER_SECRET: SECRET },
      { DECKHAND_REDIS_URL: REDIS, DECKHAND_CLUSTER_SECRET: SECRET, DECKHAND_NODE_URL: 'not a url' },
    ]) {
      let message = '';
      try {
        loadServerConfig(env);
      } catch (error) {
        message = (error as Error).message;
      }
      expect(message).toMatch(/DECKHAND_(CLUSTER_SECRET|REDIS_URL|NODE_URL)/);
      expect(message).not.toContain('hunter2');
      expect(message).not.toContain('short-secret-value');
      expect(message).not.toContain(SECRET);
    }
  });
});
