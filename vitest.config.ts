import { transform } from 'esbuild';
import { defineConfig, type Plugin } from 'vitest/config';

/**
 * Our TypeScript compiled as `npm start` compiles it: tsx runs esbuild with keepNames, which wraps named
 * inner functions in calls to a `__name` helper. A function we send into the page must not depend on it,
 * so the tests see the same code the service runs (a listbox choice once passed here and failed there).
 */
const asTsxCompiles: Plugin = {
  name: 'deckhand:as-tsx-compiles',
  enforce: 'pre',
  async transform(code, id) {
    if (!/\/packages\/[^/]+\/src\/.*\.ts$/.test(id)) return null;
    const out = await transform(code, { loader: 'ts', format: 'esm', keepNames: true, target: 'es2022', sourcemap: true, sourcefile: id });
    return { code: out.code, map: out.map };
  },
};

/** A project of the suite: its tests, compiled as the service is, with the shared time bounds. */
const project = (test: { name: string; include: string[]; env?: Record<string, string> }) => ({
  plugins: [asTsxCompiles],
  test: { testTimeout: 30_000, hookTimeout: 60_000, ...test },
});

export default defineConfig({
  test: {
    maxWorkers: 2,
    reporters: ['default', './test/support/summary-reporter.ts'],
    projects: [
      project({ name: 'unit', include: ['packages/*/test/**/*.test.ts', 'test/support/**/*.test.ts', 'test/compat/**/*.test.ts', 'test/first-run/**/*.test.ts'] }),
      // The one contract suite, run against the server over raw HTTP and through packages/client.
      project({ name: 'contract:http', include: ['test/contract/**/*.test.ts'], env: { CONTRACT_DRIVER: 'http' } }),
      project({ name: 'contract:client', include: ['test/contract/**/*.test.ts'], env: { CONTRACT_DRIVER: 'client' } }),
      // Attacks on the service (issue 6), each reproduced through the public interface.
      project({ name: 'security', include: ['test/security/**/*.test.ts'], env: { CONTRACT_DRIVER: 'http' } }),
      // The MCP tool server, one suite over stdio, self-hosted and hosted Streamable HTTP.
      project({ name: 'mcp', include: ['test/mcp/**/*.test.ts'] }),
      // Spec-derived fuzzing against a real server: run once, over raw HTTP.
      project({ name: 'fuzz', include: ['test/fuzz/**/*.test.ts'] }),
      // Instructions on realistic pages, judged by what happened in the page; prints its score (issue 12).
      project({ name: 'grounding', include: ['test/grounding/**/*.test.ts'] }),
      // Issue 18's frozen held-out batch: act and agent on task pages nobody tuned for; fails on any false success.
      project({ name: 'heldout', include: ['test/heldout/**/*.test.ts', 'test/heldout-redteam/**/*.test.ts'] }),
      // Many nodes on one Redis (issue 20): a real redis-server and Deckhand nodes as processes of their own.
      project({ name: 'cluster', include: ['test/cluster/**/*.test.ts'] }),
      // The published packages: built, packed, installed into an empty directory and run there (issues 19 and 21).
      project({ name: 'packaging', include: ['test/packaging/**/*.test.ts'] }),
      // The Python client (clients/python): its unittest suite against a real server.
      project({ name: 'python', include: ['test/python/**/*.test.ts'] }),
    ],
  },
});
