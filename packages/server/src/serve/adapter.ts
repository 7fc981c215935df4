// What a runtime adapter (node.ts, bun.ts) is: how to listen and accept WebSocket upgrades, and how one is refused.
import { randomUUID } from 'node:crypto';
import type { CdpChannel, DeckhandError } from '@deckhand/core';
import { errorBody } from '../errors';

/** A WebSocket upgrade is either joined to a DevTools channel (of a session of `projectId`) or answered with an error body. */
export type UpgradeDecision = { open: () => Promise<CdpChannel>; projectId: string } | UpgradeRefusal;

/** An error answer in the one shape, with its request id. */
export interface UpgradeRefusal {
  status: number;
  body: string;
  requestId: string;
}

/** The refusal of an upgrade for this error. */
export function reject(error: DeckhandError): UpgradeRefusal {
  return { status: error.status, body: JSON.stringify(errorBody(error.code, error.message)), requestId: randomUUID() };
}

export type Listen = (options: {
  fetch: (request: Request) => Response | Promise<Response>;
  host: string;
  port: number;
  /** Decides what a WebSocket upgrade request (path and query, and its headers by lower-case name) is joined to. */
  upgrade: (pathAndQuery: string, header: (name: string) => string | undefined) => UpgradeDecision | Promise<UpgradeDecision>;
}) => Promise<{ port: number; close: () => Promise<void> }>;
