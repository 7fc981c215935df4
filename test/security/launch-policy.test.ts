// A client must not choose what the server executes or where it writes: launch switches pass an
// allowlist, the executable is the operator's, and profile and download paths stay inside the
// project's data directory. Each attack leaves a marker file if it ever runs.
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { START_BODY, expectError, expectOk, useContract } from '../support/contract';
import { pageText } from '../support/page-log';

const scratch = mkdtempSync(join(tmpdir(), 'deckhand-launch-policy-'));
// The browser's user must be able to pass through to the data directory (it cannot list it).
chmodSync(scratch, 0o711);
const dataDir = join(scratch, 'data');
const ctx = useContract({ DECKHAND_DATA_DIR: dataDir });
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** A script that leaves `marker` behind when run, then runs whatever it was given (so a launch would proceed). */
function markerScript(name: string): { script: string; marker: string } {
  const script = join(scratch, `${name}.sh`);
  const marker = join(scratch, `${name}.ran`);
  writeFileSync(script, `#!/bin/sh\ntouch '${marker}'\nexec "$@"\n`);
  chmodSync(script, 0o755);
  return { script, marker };
}

function startWith(launchOptions: Record<string, unknown>) {
  return ctx.api.call('startSession', { body: { ...START_BODY, browser: { type: 'local', launchOptions: { headless: true, ...launchOptions } } } });
}

/** Starts with the options; should it (wrongly) start, its page is loaded and it is ended, so any renderer it spawns has run. */
async function attempt(launchOptions: Record<string, unknown>) {
  const reply = await startWith(launchOptions);
  if (reply.status === 200) {
    const id = reply.body.data.sessionId;
    await ctx.api.call('navigate', { id, body: { url: ctx.fixtures.url('forms.html') } });
    await ctx.api.call('endSession', { id });
  }
  return reply;
}

describe('launch policy', () => {
  it('refuses command-prefix and launcher switches in every spelling, and the script never runs', async () => {
    const forms = ['--renderer-cmd-prefix', '-renderer-cmd-prefix', '--Renderer-Cmd-Prefix', '--utility-cmd-prefix', '--gpu-launcher', '--browser-subprocess-path'];
    for (const [i, form] of forms.entries()) {
      const { script, marker } = markerScript(`prefix-${i}`);
      const reply = await attempt({ args: [`${form}=${script}`] });
      expect(existsSync(marker), `${form} ran its script`).toBe(false);
      const error = expectError(reply, 400, 'validation_error');
      expect(error.message).toContain(form.replace(/^-+/, '').toLowerCase());
      expect(error.issues?.[0]?.path).toBe('browser.launchOptions.args.0');
    }
  });

  it('refuses switches outside the allowlist, naming the switch', async () => {
    const refused = [
      '--remote-debugging-port=9222', '--user-data-dir=/tmp/x', '--proxy-server=http://127.0.0.1:1', '--load-extension=/tmp/ext',
      '--disable-web-security', '--no-zygote', 'http://example.com', '--', '--enable-features=NetworkServiceInProcess',
    ];
    for (const arg of refused) {
      const error = expectError(await startWith({ args: ['--lang=en-GB', arg] }), 400, 'validation_error');
      expect(error.issues?.[0]?.path, arg).toBe('browser.launchOptions.args.1');
    }
  });

  it('refuses an executablePath that is not the operator\'s Chromium, and the script never runs', async () => {
    const { script, marker } = markerScript('executable');
    const linkToScript = join(scratch, 'chromium');
    symlinkSync(script, linkToScript);
    for (const executablePath of [script, linkToScript, '/bin/sh']) {
      const reply = await attempt({ executablePath });
      expect(existsSync(marker), executablePath).toBe(false);
      const error = expectError(reply, 400, 'validation_error');
      expect(error.issues?.[0]?.path).toBe('browser.launchOptions.executablePath');
    }
  });

  it('refuses ignoreDefaultArgs: true, and a DevTools port', async () => {
    const dropAll = expectError(await startWith({ ignoreDefaultArgs: true }), 400, 'validation_error');
    expect(dropAll.issues?.[0]?.path).toBe('browser.launchOptions.ignoreDefaultArgs');
    const dropSandbox = expectError(await startWith({ ignoreDefaultArgs: ['--no-sandbox'] }), 400, 'validation_error');
    expect(dropSandbox.issues?.[0]?.path).toBe('browser.launchOptions.ignoreDefaultArgs.0');
    const port = expectError(await startWith({ port: 9333 }), 400, 'validation_error');
    expect(port.issues?.[0]?.path).toBe('browser.launchOptions.port');
  });

  it('keeps userDataDir and downloadsPath inside the project\'s data directory', async () => {
    const outside = mkdtempSync(join(scratch, 'outside-'));
    const project = join(dataDir, 'local');
    mkdirSync(project, { recursive: true });
    symlinkSync(outside, join(project, 'escape'));
    const absolute = join(scratch, 'absolute-profile');
    for (const userDataDir of ['../../etc', absolute, 'escape', 'escape/profile', 'a/../../b', 'nul\u0000byte']) {
      const error = expectError(await startWith({ userDataDir }), 400, 'validation_error');
      expect(error.issues?.[0]?.path, userDataDir).toBe('browser.launchOptions.userDataDir');
    }
    const downloads = expectError(await startWith({ downloadsPath: '../other-project' }), 400, 'validation_error');
    expect(downloads.issues?.[0]?.path).toBe('browser.launchOptions.downloadsPath');
    expect(existsSync(join(outside, 'profile'))).toBe(false);
    expect(existsSync(absolute)).toBe(false);
  });

  it('puts an allowed userDataDir in the project\'s directory, where it persists across sessions', async () => {
    const launchOptions = { userDataDir: 'profiles/main', downloadsPath: 'downloads' };
    const visits: string[] = [];
    for (let run = 0; run < 2; run++) {
      const reply = await startWith(launchOptions);
      expectOk(reply);
      const id = reply.body.data.sessionId;
      expectOk(await ctx.api.call('navigate', { id, body: { url: ctx.fixtures.url('visits.html') } }));
      visits.push(await pageText(ctx.api, id, '#visits'));
      // One profile, one live browser: a second session on it would corrupt it.
      const twin = expectError(await startWith(launchOptions), 422, 'unprocessable');
      expect(twin.message).toMatch(/userDataDir is in use/);
      expectOk(await ctx.api.call('endSession', { id }));
    }
    expect(visits).toEqual(['earlier visits: 0', 'earlier visits: 1']);
    expect(existsSync(join(dataDir, 'local', 'profiles', 'main', 'Default'))).toBe(true);
    expect(existsSync(join(dataDir, 'local', 'downloads'))).toBe(true);
  });
});
