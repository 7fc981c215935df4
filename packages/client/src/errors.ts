// A non-2xx answer, carrying the server's one error body.
import type { ErrorResponse } from '@deckhand/contract';

export class DeckhandApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: ErrorResponse,
    readonly requestId?: string,
  ) {
    super(body.message);
    this.name = 'DeckhandApiError';
  }

  get code(): ErrorResponse['code'] {
    return this.body.code;
  }
}
