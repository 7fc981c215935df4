// The launch policy on its own (no browser): which switches pass and in what form, every spelling
// of a refused one, ignoreDefaultArgs, the DevTools port, the executable, and confined paths.
import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { checkLaunchOptions } from '../src/browser/chromium/launch-policy.js';
import { projectDirName } from '../src/browser/project-data/project-data-dir.js';
import { DEFAULT_CORE_CONFIG } from '../src/config.js';
import type { LaunchOptions } from '../src/types.js';

const scratch = realpathSync(mkdtempSync(join(tmpdir(), 'deckhand-policy-unit-')));
const config = { ...DEFAULT_CORE_CONFIG, dataDir: join(scratch, 'data') };
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const check = (options: LaunchOptions, projectId = 'alpha', cfg = config) => checkLaunchOptions(options, projectId, cfg);

/** The refusal's issue path and message. */
async function refusal(options: LaunchOptions, projectId = 'alpha', cfg = config) {
  try {
    await check(options, projectId, cfg);
  } catch (error) {
    expect(error).toMatchObject({ code: 'validation_error', status: 400 });
    const issue = (error as { issues: Array<{ path: string; message: string }> }).issues[0]!;
    expect((error as Error).message).toContain(issue.path);
    return issue;
  }
  throw new Error(`accepted ${JSON.stringify(options)}`);
}

describe('args', () => {
  it('normalises allowed switches to --name[=value]', async () => {
    const args = ['-window-size=800,600', '--Lang=de-DE', '-disable-features=Translate,OptimizationHints', '--MUTE-AUDIO',
      '--accept-lang=en-GB,en;q=0.8', '--blink-settings=imagesEnabled=false,primaryHoverType=2', '--user-agent=Mozilla/5.0 (X11) Test --renderer-cmd-prefix=/x',
      '--disable-blink-features=AutomationControlled', '--force-device-scale-factor=1.5', '--autoplay-policy=no-user-gesture-required'];
    expect((await check({ args })).args).toEqual([
      '--window-size=800,600', '--lang=de-DE', '--disable-features=Translate,OptimizationHints', '--mute-audio',
      '--accept-lang=en-GB,en;q=0.8', '--blink-settings=imagesEnabled=false,primaryHoverType=2', '--user-agent=Mozilla/5.0 (X11) Test --renderer-cmd-prefix=/x',
      '--disable-blink-features=AutomationControlled', '--force-device-scale-factor=1.5', '--autoplay-policy=no-user-gesture-required',
    ]);
  });

  it('refuses every spelling of a dangerous switch, naming it', async () => {
    const spellings = [
      '--renderer-cmd-prefix=/tmp/x.sh', '-renderer-cmd-prefix=/tmp/x.sh', '--Renderer-Cmd-Prefix=/tmp/x.sh', '--RENDERER-CMD-PREFIX=/tmp/x.sh',
      '--renderer-cmd-prefix', '-renderer-cmd-prefix',
    ];
    for (const arg of spellings) {
      const issue = await refusal({ args: [arg] });
      expect(issue, arg).toEqual({ path: 'browser.launchOptions.args.0', message: expect.stringContaining('--renderer-cmd-prefix is not allowed') });
    }
    const dangerous = [
      'utility-cmd-prefix', 'gpu-launcher', 'browser-subprocess-path', 'remote-debugging-port', 'remote-debugging-address',
      'remote-debugging-pipe', 'user-data-dir', 'proxy-server', 'proxy-pac-url', 'host-resolver-rules', 'load-extension',
      'disable-web-security', 'allow-file-access-from-files', 'no-zygote', 'single-process', 'in-process-gpu', 'ppapi-plugin-launcher',
      'enable-logging', 'log-file', 'crash-dumps-dir', 'disk-cache-dir', 'headless', 'remote-allow-origins', 'js-flags',
    ];
    for (const name of dangerous) {
      for (const arg of [`--${name}=/tmp/x`, `-${name.toUpperCase()}`]) {
        expect((await refusal({ args: [arg] })).message, arg).toContain(`--${name} is not allowed`);
      }
    }
  });

  it('refuses what is not a plain switch: positional arguments, odd names, control characters, "--"', async () => {
    for (const arg of ['https://example.com', '/tmp/x.sh', '', ' --renderer-cmd-prefix=/x', '---renderer-cmd-prefix=/x', '--renderer-cmd-prefix =/x',
      '--', '--=x', '--lang=en\n--renderer-cmd-prefix=/x', '--lang=en\u0000', 'x'.repeat(2000)]) {
      expect((await refusal({ args: ['--mute-audio', arg] })).path, JSON.stringify(arg)).toBe('browser.launchOptions.args.1');
    }
    expect((await refusal({ args: Array(101).fill('--mute-audio') })).path).toBe('browser.launchOptions.args');
  });

  it('checks values: flags take none, lists only name harmless entries', async () => {
    const refused = [
      '--mute-audio=1', '--window-size=800', '--window-size=800,600,1', '--lang=en GB', '--force-color-profile=/tmp/icc',
      '--disable-features=IsolateOrigins', '--disable-features=Translate,SitePerProcess', '--enable-features=NetworkServiceInProcess',
      '--enable-features=Translate<Trial', '--enable-features=', '--blink-settings=allowRunningOfInsecureContent=true',
      '--blink-settings=imagesEnabled=fa lse', '--disable-blink-features=WebSecurity', '--user-agent=', `--user-agent=${'a'.repeat(600)}`,
      '--force-webrtc-ip-handling-policy=default_public_and_private_interfaces',
    ];
    for (const arg of refused) {
      const name = arg.slice(2).split('=')[0]!;
      expect((await refusal({ args: [arg] })).message, arg).toContain(`--${name}`);
    }
  });
});

describe('ignoreDefaultArgs, port', () => {
  it('lets a client drop only harmless defaults', async () => {
    expect((await check({ ignoreDefaultArgs: ['-Enable-Automation', '--mute-audio'] })).ignoreDefaultArgs).toEqual(['--enable-automation', '--mute-audio']);
    expect((await check({ ignoreDefaultArgs: false })).ignoreDefaultArgs).toBe(false);
    expect(await refusal({ ignoreDefaultArgs: true })).toMatchObject({ path: 'browser.launchOptions.ignoreDefaultArgs' });
    for (const arg of ['--no-sandbox', '--remote-debugging-pipe', '--site-per-process', '--disable-features', 'x', '--enable-automation\u0000']) {
      expect(await refusal({ ignoreDefaultArgs: ['--hide-scrollbars', arg] }), arg).toMatchObject({ path: 'browser.launchOptions.ignoreDefaultArgs.1' });
    }
  });

  it('accepts port 0 or none, and refuses any other DevTools port', async () => {
    expect((await check({ port: 0 })).port).toBe(0);
    expect(await refusal({ port: 9222 })).toMatchObject({ path: 'browser.launchOptions.port' });
  });
});

describe('executablePath', () => {
  it('accepts the operator\'s binaries, also through a symlink, and answers the operator\'s path', async () => {
    expect((await check({ executablePath: '/usr/bin/chromium' })).executablePath).toBe('/usr/bin/chromium');
    const link = join(scratch, 'my-chromium');
    symlinkSync('/usr/lib/chromium/chromium-headless-shell', link);
    expect((await check({ executablePath: link })).executablePath).toBe('/usr/lib/chromium/chromium-headless-shell');
  });

  it('refuses anything else', async () => {
    const script = join(scratch, 'chromium');
    writeFileSync(script, '#!/bin/sh\n', { mode: 0o755 });
    for (const executablePath of [script, '/bin/sh', '/usr/lib/chromium/chrome_crashpad_handler', '/no/such/chromium', '', 'chromium\u0000']) {
      expect(await refusal({ executablePath }), executablePath).toMatchObject({ path: 'browser.launchOptions.executablePath' });
    }
    // With DECKHAND_CHROMIUM_PATH set, only that binary is the operator's.
    const pinned = { ...config, chromiumPath: '/usr/lib/chromium/chromium-headless-shell' };
    expect(await refusal({ executablePath: '/usr/bin/chromium' }, 'alpha', pinned)).toMatchObject({ path: 'browser.launchOptions.executablePath' });
  });
});

describe('userDataDir and downloadsPath', () => {
  const projectRoot = join(config.dataDir, 'alpha');

  it('resolves a relative path inside the project directory and creates it', async () => {
    const checked = await check({ userDataDir: './profiles/./main/', downloadsPath: 'downloads' });
    expect(checked.userDataDir).toBe(join(projectRoot, 'profiles', 'main'));
    expect(checked.downloadsPath).toBe(join(projectRoot, 'downloads'));
    expect(existsSync(checked.userDataDir!)).toBe(true);
    // Another project asking for the same path gets its own directory.
    expect((await check({ userDataDir: 'profiles/main' }, 'beta')).userDataDir).toBe(join(config.dataDir, 'beta', 'profiles', 'main'));
  });

  it('refuses absolute paths, "..", the root itself, control characters and symlinks that lead out', async () => {
    mkdirSync(projectRoot, { recursive: true });
    const outside = mkdtempSync(join(scratch, 'outside-'));
    symlinkSync(outside, join(projectRoot, 'out'));
    symlinkSync(join(scratch, 'no-such-target'), join(projectRoot, 'dangling'));
    symlinkSync('../beta', join(projectRoot, 'sibling'));
    writeFileSync(join(projectRoot, 'a-file'), '');
    const refused = ['/tmp/x', '/', '../../etc', '..', 'a/../../b', 'a/..', '', '.', './', 'nul\u0000byte', 'new\nline', 'out', 'out/profile',
      'dangling', 'dangling/profile', 'sibling/profiles', 'a-file', 'a-file/x', 'x'.repeat(1025)];
    for (const path of refused) {
      expect(await refusal({ userDataDir: path }), JSON.stringify(path)).toMatchObject({ path: 'browser.launchOptions.userDataDir' });
      expect(await refusal({ downloadsPath: path }), JSON.stringify(path)).toMatchObject({ path: 'browser.launchOptions.downloadsPath' });
    }
    expect(existsSync(join(outside, 'profile'))).toBe(false);
  });

  it('follows a symlink that stays inside the project directory', async () => {
    mkdirSync(join(projectRoot, 'real-profiles'), { recursive: true });
    symlinkSync('real-profiles', join(projectRoot, 'profiles-link'));
    expect((await check({ userDataDir: 'profiles-link/one' })).userDataDir).toBe(join(projectRoot, 'real-profiles', 'one'));
  });

  it('names project directories safely and distinctly', () => {
    expect(projectDirName('alpha_1-B')).toBe('alpha_1-B');
    expect(projectDirName('..')).toBe('%2E%2E');
    expect(projectDirName('.')).toBe('%2E');
    expect(projectDirName('a/b')).toBe('a%2Fb');
    expect(projectDirName('a.b')).not.toBe(projectDirName('a%2Eb'));
    expect(projectDirName('')).toMatch(/^~[0-9a-f]{64}$/);
    expect(projectDirName('p'.repeat(101))).toMatch(/^~[0-9a-f]{64}$/);
    expect(projectDirName('p'.repeat(101))).not.toBe(projectDirName('p'.repeat(102)));
  });

  it('keeps a project id with slashes or dots inside the data directory', async () => {
    const checked = await check({ userDataDir: 'profile' }, '../../escape');
    expect(checked.userDataDir).toBe(join(config.dataDir, '%2E%2E%2F%2E%2E%2Fescape', 'profile'));
  });
});
