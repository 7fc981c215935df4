// Pictures of a session: a screenshot or PDF of its page (the file's bytes, or base64 JSON when the
// body asks), and the replay's picture per operation, by API key or by the live page's view token.
import { DeckhandError, type Session } from '@deckhand/core';
import type { Context } from 'hono';
import type { AppEnv } from '../env';
import type { Handlers } from '../route';
import type { RouteDeps } from './deps';

type MediaType = 'image/png' | 'image/jpeg' | 'application/pdf';

/** The file as asked: its own bytes and type, or `{success, data: {mediaType, base64}}`. */
function fileAnswer(c: Context<AppEnv>, bytes: Buffer, mediaType: MediaType, encoding: 'binary' | 'base64' | undefined, truncated = false): Response {
  if (encoding === 'base64') return c.json({ success: true as const, data: { mediaType, base64: bytes.toString('base64'), ...(truncated ? { truncated } : {}) } }, 200);
  return c.body(new Uint8Array(bytes), 200, { 'content-type': mediaType, 'cache-control': 'no-store', ...(truncated ? { 'x-deckhand-truncated': 'true' } : {}) });
}

async function pictureAnswer(c: Context<AppEnv>, session: Session, step: number): Promise<Response> {
  const jpeg = await session.replayPicture(step);
  if (!jpeg) throw new DeckhandError('route_not_found', `This session's replay has no picture ${step}`);
  // A picture never changes once taken.
  return c.body(new Uint8Array(jpeg), 200, { 'content-type': 'image/jpeg', 'cache-control': 'private, max-age=3600' });
}

// The generated routes type only JSON answers; the bytes answers are the contract's image and PDF
// content, hence `as never` on the handlers' return.
export function pictureHandlers({ sessions, live }: RouteDeps): Pick<Handlers, 'screenshot' | 'pdf' | 'getReplayPicture' | 'getLivePicture'> {
  return {
    screenshot: async (c) => {
      const { encoding, ...options } = c.req.valid('json');
      const session = sessions.get(c.get('projectId'), c.req.valid('param').id);
      const shot = await session.screenshot(options, { signal: c.req.raw.signal });
      return fileAnswer(c, shot.bytes, shot.mediaType, encoding, shot.truncated) as never;
    },

    pdf: async (c) => {
      const { encoding, ...options } = c.req.valid('json') ?? {};
      const session = sessions.get(c.get('projectId'), c.req.valid('param').id);
      const pdf = await session.pdf(options, { signal: c.req.raw.signal });
      return fileAnswer(c, pdf, 'application/pdf', encoding) as never;
    },

    getReplayPicture: (c) => pictureAnswer(c, sessions.recent(c.get('projectId'), c.req.valid('param').id), Number(c.req.valid('query').step)),

    getLivePicture: (c) => {
      const { id } = c.req.valid('param');
      const { token, step } = c.req.valid('query');
      return pictureAnswer(c, sessions.recent(live.projectOf(id, token), id), Number(step));
    },
  };
}
