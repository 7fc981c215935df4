// DECKHAND_MAX_SESSIONS when unset: derived from memory, sensible on a laptop and on a big server.
import { describe, expect, it } from 'vitest';
import { maxSessionsFor, memoryLimitBytes } from '../src/host/session-capacity.js';
import { isShareable } from '../src/browser/provider/shareable.js';
import { DEFAULT_CORE_CONFIG, loadCoreConfigFromEnv } from '../src/config.js';

const GIB = 1024 ** 3;

describe('session capacity', () => {
  it('is floor((0.75 × memory − 2 GiB) / 48 MiB), within 4..1000', () => {
    expect(maxSessionsFor(8 * GIB)).toBe(85);
    expect(maxSessionsFor(24 * GIB)).toBe(341);
    expect(maxSessionsFor(64 * GIB)).toBe(981);
    expect(maxSessionsFor(2 * GIB)).toBe(4);
    expect(maxSessionsFor(1024 * GIB)).toBe(1000);
  });

  it('is the default of DECKHAND_MAX_SESSIONS, which still wins when set', () => {
    expect(loadCoreConfigFromEnv({}).maxSessions).toBe(maxSessionsFor(memoryLimitBytes()));
    expect(loadCoreConfigFromEnv({ DECKHAND_MAX_SESSIONS: '7' }).maxSessions).toBe(7);
    expect(memoryLimitBytes()).toBeGreaterThan(0);
  });

  it('reads the pool and sharing settings, 0 switching the pool off', () => {
    expect(loadCoreConfigFromEnv({})).toMatchObject({ poolSize: 1, poolMaxAgeMs: 1_800_000, contextsPerBrowser: 50 });
    expect(loadCoreConfigFromEnv({ DECKHAND_POOL_SIZE: '0', DECKHAND_POOL_MAX_AGE_MS: '0', DECKHAND_CONTEXTS_PER_BROWSER: '1' })).toMatchObject({
      poolSize: 0,
      poolMaxAgeMs: 0,
      contextsPerBrowser: 1,
    });
  });
});

describe('which launch options share the project browser', () => {
  it('shares defaults and per-context options only', () => {
    const config = DEFAULT_CORE_CONFIG;
    expect(isShareable({}, config)).toBe(true);
    expect(isShareable({ headless: true, viewport: { width: 800, height: 600 }, args: [], ignoreDefaultArgs: [], connectTimeoutMs: 5000, acceptDownloads: false }, config)).toBe(true);
    for (const options of [{ headless: false }, { args: ['--lang=fr'] }, { userDataDir: 'p' }, { proxy: { server: 'http://p:1' } }, { locale: 'de-DE' }, { chromiumSandbox: true }, { executablePath: '/x' }, { ignoreDefaultArgs: ['--mute-audio'] }, { downloadsPath: 'd' }]) {
      expect(isShareable(options, config), JSON.stringify(options)).toBe(false);
    }
  });
});
