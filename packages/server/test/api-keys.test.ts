// API key entries with per-project limits, and the server-wide defaults those limits fall back to.
import { describe, expect, it } from 'vitest';
import { limitsOf, loadServerConfig, parseApiKeys } from '../src/config';

describe('API key entries', () => {
  it('keeps the plain key:projectId form, keys with colons included', () => {
    expect(parseApiKeys('a:one, b:c:two\n# x:y\nbase64==:p=1')).toEqual([
      { key: 'a', projectId: 'one', limits: {} },
      { key: 'b:c', projectId: 'two', limits: {} },
      { key: 'base64==', projectId: 'p=1', limits: {} },
    ]);
  });

  it('reads :sessions=N and :rate=R after the project, in either order', () => {
    expect(parseApiKeys('k:p:sessions=4:rate=2.5, k2:p2:rate=0:sessions=0, k3:x:y:p3:rate=10')).toEqual([
      { key: 'k', projectId: 'p', limits: { maxSessions: 4, rate: 2.5 } },
      { key: 'k2', projectId: 'p2', limits: { maxSessions: 0, rate: 0 } },
      { key: 'k3:x:y', projectId: 'p3', limits: { rate: 10 } },
    ]);
  });

  it('refuses malformed entries without repeating the key', () => {
    for (const text of ['secret-key', 'secret-key:', ':p', 'secret-key:p:sessions=1.5', 'secret-key:p:sessions=-1', 'secret-key:p:rate=fast',
      'secret-key:p:rate=', 'secret-key:p:rate=1:rate=2', 'secret-key:p:sessions=Infinity']) {
      expect(() => parseApiKeys(text), text).toThrow(/key:projectId/);
      try {
        parseApiKeys(text);
      } catch (error) {
        expect((error as Error).message).not.toContain('secret-key');
      }
    }
  });
});

describe('project limits', () => {
  it('limits every project of a server with keys by default, and none of an open server', () => {
    const shared = loadServerConfig({ DECKHAND_API_KEYS: 'ka:a,kb:b:sessions=1' });
    expect(limitsOf(shared, 'a')).toEqual({ maxSessions: 4, rate: 20 });
    expect(limitsOf(shared, 'b')).toEqual({ maxSessions: 1, rate: 20 });
    expect(limitsOf(loadServerConfig({}), 'local')).toEqual({});
  });

  it('takes the defaults from the environment, 0 meaning none, and lets a key lift them', () => {
    const config = loadServerConfig({ DECKHAND_API_KEYS: 'ka:a,kb:b:sessions=0:rate=0', DECKHAND_PROJECT_MAX_SESSIONS: '2', DECKHAND_PROJECT_RATE: '0.5' });
    expect(limitsOf(config, 'a')).toEqual({ maxSessions: 2, rate: 0.5 });
    expect(limitsOf(config, 'b')).toEqual({});
    expect(limitsOf(loadServerConfig({ DECKHAND_PROJECT_RATE: '3' }), 'local')).toEqual({ rate: 3 });
    expect(limitsOf(loadServerConfig({ DECKHAND_API_KEYS: 'k:p', DECKHAND_PROJECT_RATE: '0', DECKHAND_PROJECT_MAX_SESSIONS: '0' }), 'p')).toEqual({});
    expect(() => loadServerConfig({ DECKHAND_PROJECT_MAX_SESSIONS: '1.5' })).toThrow(/DECKHAND_PROJECT_MAX_SESSIONS/);
    expect(() => loadServerConfig({ DECKHAND_PROJECT_RATE: '-1' })).toThrow(/DECKHAND_PROJECT_RATE/);
  });

  it('counts limits per project: keys of one project may repeat a limit but not disagree', () => {
    const config = loadServerConfig({ DECKHAND_API_KEYS: 'k1:p:sessions=3,k2:p:rate=1,k3:p:sessions=3' });
    expect(limitsOf(config, 'p')).toEqual({ maxSessions: 3, rate: 1 });
    expect(() => loadServerConfig({ DECKHAND_API_KEYS: 'k1:p:sessions=3,k2:p:sessions=4' })).toThrow(/project "p" set different sessions limits/);
  });
});
