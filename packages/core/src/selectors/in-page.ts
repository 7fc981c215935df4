// Builds functions that frame.evaluate (or CDP, by source text) can ship to the page. A function
// travels as source text, so in-page code cannot use imports or closures: the helpers it needs are
// declared side by side in one wrapper here (so they may call each other by name) and handed to it
// as its second argument.

import { pointerListenersOf } from '../browser/page-hooks/listener-hook.js';
import { shadowRootOf } from '../browser/page-hooks/shadow-hook.js';
import { elementPath, pathStep } from './element-path.js';

/** Helpers every in-page function may call: the open-or-closed shadow root lookup, the path writer, pointer-listener marks. */
export interface InPageLib {
  shadowRootOf: typeof shadowRootOf;
  pathStep: typeof pathStep;
  elementPath: typeof elementPath;
  pointerListenersOf: typeof pointerListenersOf;
}

/**
 * Wraps `fn(arg, lib, more)` as a standalone `(arg, more) => result` whose source carries the helpers, and the
 * in-page `modules` given (each a self-contained function, reached as lib.<name>: a large in-page
 * function is split into them). `__name` is declared because some TypeScript transpilers (tsx,
 * esbuild keepNames) wrap named inner functions in calls to it, which would not exist in the page.
 */
export function inPage<A, R, M extends Record<string, (...args: never[]) => unknown> = Record<never, never>, B = void>(
  fn: (arg: A, lib: InPageLib & M, more?: B) => R,
  modules?: M,
): (arg: A, more?: B) => R {
  const names = Object.keys(modules ?? {});
  const source = `(arg, more) => {
    const __name = (f) => f;
    const shadowRootOf = ${shadowRootOf};
    const pathStep = ${pathStep};
    const elementPath = ${elementPath};
    const pointerListenersOf = ${pointerListenersOf};
    ${names.map((name) => `const ${name} = ${modules![name]};`).join('\n    ')}
    return (${fn})(arg, { shadowRootOf, pathStep, elementPath, pointerListenersOf, ${names.join(', ')} }, more);
  }`;
  return new Function(`return ${source}`)() as (arg: A, more?: B) => R;
}

/**
 * `fn` as a function a page can run on its own (an element's evaluate, say): its source declares `__name`,
 * as inPage's does, for the inner functions a transpiler named.
 */
export function pageFunction<F extends (...args: never[]) => unknown>(fn: F): F {
  return new Function(`return (...args) => { const __name = (f) => f; return (${fn})(...args); }`)() as F;
}
