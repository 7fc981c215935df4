// Renders the list of operations (method, path, whether it streams, is a WebSocket, needs no key) that
// the server's handler table and the test drivers are checked against.
import type { Operation } from './operations';

export function renderOperationList(operations: Operation[]): string {
  const rows = operations.map((op) => {
    const streams = Object.values(op.responses).some((response) => response.sse);
    return `  ${op.operationId}: { method: '${op.method}', path: '${op.path}', streams: ${streams}, websocket: ${op.websocket}, public: ${op.public} },`;
  });
  return [
    `/** Every operation of openapi.yaml. */`,
    `export const operationList = {`,
    ...rows,
    `} as const;`,
    '',
    `export type OperationId = keyof typeof operationList;`,
    `/** Operations that also answer as an event stream (x-stream-response). */`,
    `export type StreamingOperationId = { [K in OperationId]: (typeof operationList)[K]['streams'] extends true ? K : never }[OperationId];`,
    `/** Operations an HTTP client calls (not the WebSocket endpoints). */`,
    `export type HttpOperationId = { [K in OperationId]: (typeof operationList)[K]['websocket'] extends true ? never : K }[OperationId];`,
    '',
  ].join('\n');
}
