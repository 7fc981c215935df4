// The act cache of env LOCAL (the core in this process) in the client's cacheDir: signed with a secret
// of its own kept there (0600), so an entry it did not write (a file edited or planted in cacheDir)
// is not replayed by a later instance: the model (here the offline one) answers again.
import { readdir, readFile, stat, writeFile, mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Deckhand, type DeckhandOptions } from '@deckhand/client';
import { startFixtureServer, type FixtureServer } from '../../../test/support/fixture-server';

let fixtures: FixtureServer;
beforeAll(async () => {
  fixtures = await startFixtureServer();
});
afterAll(() => fixtures?.close());

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries.filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name));
}

/** Runs one LOCAL session on forms.html: `act`, submit, and answers what the page shows as submitted. */
async function typeAndSubmit(options: Partial<DeckhandOptions>, instruction: string): Promise<string> {
  const deckhand = new Deckhand({ env: 'LOCAL', verbose: 0, localBrowserLaunchOptions: { headless: true }, ...options });
  await deckhand.init();
  try {
    await deckhand.goto(fixtures.url('forms.html'));
    const result = await deckhand.act(instruction);
    expect(result.success, result.message).toBe(true);
    await deckhand.act({ selector: '#submit', method: 'click', description: 'Submit' });
    return JSON.stringify(await deckhand.extract(undefined, undefined, { selector: '#result' }));
  } finally {
    await deckhand.close();
  }
}

describe('LOCAL act cache', () => {
  it('keeps its own secret in cacheDir and replays no entry it did not sign', async () => {
    const cacheDir = await mkdtemp(join(tmpdir(), 'deckhand-local-cache-'));
    expect(await typeAndSubmit({ cacheDir }, 'type Acct4711 into the Name field')).toContain('submitted: Acct4711 /');
    expect((await stat(join(cacheDir, '.cache-secret'))).mode & 0o777).toBe(0o600);

    let forged = 0;
    for (const file of await filesUnder(cacheDir)) {
      const text = await readFile(file, 'utf8');
      if (!text.includes('Acct4711')) continue;
      await writeFile(file, text.split('Acct4711').join('Evil6666'));
      forged++;
    }
    expect(forged).toBeGreaterThan(0);
    expect(await typeAndSubmit({ cacheDir }, 'type Acct4711 into the Name field')).toContain('submitted: Acct4711 /');
  });
});
