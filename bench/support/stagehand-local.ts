// Stagehand 3.7.3 in LOCAL mode on the Chromium Deckhand uses (nothing downloads here), quiet.
import { Stagehand, type V3Options } from '@browserbasehq/stagehand';
import { findChromium } from '../../packages/core/src/browser/chromium/chromium-path.js';

export const CHROMIUM = process.env.CHROMIUM ?? findChromium(true);
/** The flags every peer's browser gets in the benches (no sandbox in this container, nothing phoning home). */
export const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'];

/** `model` is the model its natural-language calls use; a bare name is enough when none are made. */
export function localStagehand(model: V3Options['model'] = 'openai/gpt-4.1-mini'): Stagehand {
  return new Stagehand({
    env: 'LOCAL',
    localBrowserLaunchOptions: { executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS },
    model,
    verbose: 0,
    disablePino: true,
    disableAPI: true,
    logger: () => {},
  });
}
