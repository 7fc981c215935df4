// Renders the list of endpoints (method, path, whether it streams, is a WebSocket, needs no key) that
// the server's handler table and the test drivers are checked against.
import type { Endpoint } from './endpoints';

export function renderEndpointList(endpoints: Endpoint[]): string {
  const rows = endpoints.map((op) => {
    const streams = Object.values(op.responses).some((response) => response.sse);
    return `  ${op.operationId}: { method: '${op.method}', path: '${op.path}', streams: ${streams}, websocket: ${op.websocket}, public: ${op.public} },`;
  });
  return [
    `/** Every operation of openapi.yaml. */`,
    `export const endpoints = {`,
    ...rows,
    `} as const;`,
    '',
    `export type EndpointId = keyof typeof endpoints;`,
    `/** Endpoints that also answer as an event stream (x-stream-response). */`,
    `export type StreamingEndpointId = { [K in EndpointId]: (typeof endpoints)[K]['streams'] extends true ? K : never }[EndpointId];`,
    `/** Endpoints an HTTP client calls (not the WebSocket endpoints). */`,
    `export type HttpEndpointId = { [K in EndpointId]: (typeof endpoints)[K]['websocket'] extends true ? never : K }[EndpointId];`,
    '',
  ].join('\n');
}
