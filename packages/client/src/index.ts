// @deckhand/client: typed access to a Deckhand server.
export { createDeckhandClient, type DeckhandClient, type DeckhandClientOptions, type DeckhandSession, type CallOptions } from './client';
export { DeckhandApiError } from './errors';
export { readEvents } from './sse';
export { bindEndpoints, type Endpoints } from './gen/endpoints.gen';
