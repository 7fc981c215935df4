// Reads a Deckhand event stream: events are separated by a blank line; only `data: ` chunks count
// (comment heartbeats and anything else are skipped), exactly as Stagehand clients parse them.
import type { StreamEvent } from '@deckhand/contract';

export async function* readEvents(body: ReadableStream<Uint8Array>): AsyncGenerator<StreamEvent> {
  const decoder = new TextDecoder();
  let buffer = '';
  for await (const chunk of body as unknown as AsyncIterable<Uint8Array>) {
    buffer += decoder.decode(chunk, { stream: true });
    let boundary: number;
    while ((boundary = buffer.indexOf('\n\n')) !== -1) {
      const block = buffer.slice(0, boundary);
      buffer = buffer.slice(boundary + 2);
      if (block.startsWith('data: ')) yield JSON.parse(block.slice('data: '.length)) as StreamEvent;
    }
  }
}
