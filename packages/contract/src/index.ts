// The wire contract, generated from openapi.yaml: zod schemas (`z`), types, and the `paths` map.
export * as z from './gen/hey-api/zod.gen';
export type * from './gen/hey-api/types.gen';
export type { paths, components, operations } from './gen/paths.gen';
export { endpoints, type HttpEndpointId, type EndpointId, type StreamingEndpointId } from './gen/endpoints.gen';
