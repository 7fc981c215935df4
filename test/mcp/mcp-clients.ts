// How the MCP suite reaches Deckhand: the SDK client over stdio (a deckhand-mcp child process), the
// self-hosted binary's Streamable HTTP, or the main server's /mcp; in either protocol revision.
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { commandLineOf, processTree } from '../../packages/core/src/browser/chromium/process-tree';

export type Era = 'legacy' | 'modern';

export const BIN = fileURLToPath(new URL('../../packages/mcp/bin/deckhand-mcp.mjs', import.meta.url));

export interface Connection {
  client: Client;
  /** Ends the MCP session as a client that is done does: DELETE for a 2025-11-25 HTTP session, closing stdin for stdio. */
  close(): Promise<void>;
}

function newClient(era: Era): Client {
  return new Client({ name: 'deckhand-test', version: '1.0.0' }, era === 'modern' ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {});
}

export async function connectHttp(url: string, era: Era, headers: Record<string, string> = {}): Promise<Connection> {
  const transport = new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } });
  const client = newClient(era);
  await client.connect(transport);
  return {
    client,
    async close() {
      if (era === 'legacy') await transport.terminateSession();
      await client.close();
    },
  };
}

export async function connectStdio(era: Era, args: string[], env: Record<string, string>): Promise<Connection & { pid: number }> {
  const transport = new StdioClientTransport({ command: process.execPath, args: [BIN, ...args], env: { ...(process.env as Record<string, string>), ...env }, stderr: 'pipe' });
  const client = newClient(era);
  await client.connect(transport);
  return { client, pid: transport.pid!, close: () => client.close() };
}

/** Chromium processes under a process (the binary, or this test process for the hosted server). */
export function chromiumUnder(rootPid: number): number[] {
  return processTree(rootPid).filter((pid) => pid !== rootPid && commandLineOf(pid).some((part) => /chrom/i.test(part)));
}

/** Starts `deckhand-mcp --port 0 …` and answers its /mcp URL. */
export async function startSelfHosted(args: string[], env: Record<string, string>): Promise<{ url: string; child: ChildProcess; stop(): Promise<void> }> {
  const child = spawn(process.execPath, [BIN, '--port', '0', '--host', '127.0.0.1', ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'pipe'] });
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  const url = await new Promise<string>((resolve, reject) => {
    let err = '';
    child.stderr!.on('data', (chunk) => {
      err += chunk;
      const match = err.match(/listening on (http:\/\/\S+\/mcp)/);
      if (match) resolve(match[1]!);
    });
    child.on('exit', (code) => reject(new Error(`deckhand-mcp exited with ${code}: ${err}`)));
  });
  return {
    url,
    child,
    async stop() {
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/** Runs the binary to completion (for --help and refusals). */
export function runBin(args: string[], env: Record<string, string> = {}): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    child.stderr.on('data', (chunk) => (err += chunk));
    child.on('exit', (code) => resolve({ code, out, err }));
  });
}

export function text(result: unknown): string {
  const content = (result as { content?: Array<{ type: string; text?: string }> }).content ?? [];
  return content.map((block) => block.text ?? '').join('\n');
}
