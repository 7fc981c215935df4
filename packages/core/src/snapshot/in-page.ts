// Builds functions that frame.evaluate can ship to the page. Playwright sends a function's source
// text, so an in-page function cannot use imports or closures: the helpers it needs are inlined
// into one wrapper here and handed to it as its second argument.

import { pointerListenersOf } from '../dom/listener-hook.js';
import { shadowRootOf } from '../dom/shadow-hook.js';
import { elementPath } from './element-path.js';

/** Helpers every in-page function of the snapshot may call. */
export interface InPageLib {
  shadowRootOf: typeof shadowRootOf;
  elementPath: typeof elementPath;
  pointerListenersOf: typeof pointerListenersOf;
}

/**
 * Wraps `fn(arg, lib)` as a standalone `(arg) => result` whose source carries the helpers.
 * `__name` is declared because some TypeScript transpilers (tsx, esbuild keepNames) wrap named
 * inner functions in calls to it, which would not exist in the page.
 */
export function inPage<A, R>(fn: (arg: A, lib: InPageLib) => R): (arg: A) => R {
  const source = `(arg) => {
    const __name = (f) => f;
    const lib = { shadowRootOf: ${shadowRootOf}, elementPath: ${elementPath}, pointerListenersOf: ${pointerListenersOf} };
    return (${fn})(arg, lib);
  }`;
  return new Function(`return ${source}`)() as (arg: A) => R;
}
