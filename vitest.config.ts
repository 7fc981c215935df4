import { defineConfig } from 'vitest/config';

const shared = { testTimeout: 30_000, hookTimeout: 60_000 };

export default defineConfig({
  test: {
    maxWorkers: 2,
    reporters: ['default', './test/support/summary-reporter.ts'],
    projects: [
      { test: { ...shared, name: 'unit', include: ['packages/*/test/**/*.test.ts', 'test/support/**/*.test.ts', 'test/compat/**/*.test.ts', 'test/first-run/**/*.test.ts'] } },
      // The one contract suite, run against the server over raw HTTP and through packages/client.
      { test: { ...shared, name: 'contract:http', include: ['test/contract/**/*.test.ts'], env: { CONTRACT_DRIVER: 'http' } } },
      { test: { ...shared, name: 'contract:client', include: ['test/contract/**/*.test.ts'], env: { CONTRACT_DRIVER: 'client' } } },
      // Attacks on the service (issue 6), each reproduced through the public interface.
      { test: { ...shared, name: 'security', include: ['test/security/**/*.test.ts'], env: { CONTRACT_DRIVER: 'http' } } },
      // The MCP tool server, one suite over stdio, self-hosted and hosted Streamable HTTP.
      { test: { ...shared, name: 'mcp', include: ['test/mcp/**/*.test.ts'] } },
      // Spec-derived fuzzing against a real server: run once, over raw HTTP.
      { test: { ...shared, name: 'fuzz', include: ['test/fuzz/**/*.test.ts'] } },
      // Instructions on realistic pages, judged by what happened in the page; prints its score (issue 12).
      { test: { ...shared, name: 'grounding', include: ['test/grounding/**/*.test.ts'] } },
      // Issue 18's frozen held-out batch: act and agent on task pages nobody tuned for; fails on any false success.
      { test: { ...shared, name: 'heldout', include: ['test/heldout/**/*.test.ts', 'test/heldout-redteam/**/*.test.ts'] } },
      // Many nodes on one Redis (issue 20): a real redis-server and Deckhand nodes as processes of their own.
      { test: { ...shared, name: 'cluster', include: ['test/cluster/**/*.test.ts'] } },
      // The published packages: built, packed, installed into an empty directory and run there (issues 19 and 21).
      { test: { ...shared, name: 'packaging', include: ['test/packaging/**/*.test.ts'] } },
      // The Python client (clients/python): its unittest suite against a real server.
      { test: { ...shared, name: 'python', include: ['test/python/**/*.test.ts'] } },
    ],
  },
});
