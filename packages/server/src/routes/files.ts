// A session's files over HTTP: its downloads (list, fetch, delete) and the files sent to it for its
// pages to upload (as the raw body with ?name=, or as multipart/form-data parts named by their file names).
import { DeckhandError, type OpenedFile } from '@deckhand/core';
import type { Context } from 'hono';
import type { Handlers } from '../route';
import type { RouteDeps } from './deps';

/** Files one request may carry: each is a write, and thousands in one body kept the server busy long after the client left. */
const MAX_FILES_PER_REQUEST = 20;

type FileHandlers = 'listDownloads' | 'getDownload' | 'deleteDownload' | 'listFiles' | 'uploadFile' | 'deleteFile';

export function fileHandlers({ sessions }: RouteDeps): Pick<Handlers, FileHandlers> {
  return {
    listDownloads: async (c) => {
      const files = await sessions.get(c.get('projectId'), c.req.valid('param').id).files.listDownloads();
      return c.json({ success: true as const, data: { files } }, 200);
    },

    getDownload: async (c) => {
      const { id, name } = c.req.valid('param');
      return fileResponse(await sessions.get(c.get('projectId'), id).files.downloads.open(name));
    },

    deleteDownload: async (c) => {
      const { id, name } = c.req.valid('param');
      await sessions.get(c.get('projectId'), id).files.downloads.remove(name);
      return c.json({ success: true as const }, 200);
    },

    listFiles: async (c) => {
      const files = await sessions.get(c.get('projectId'), c.req.valid('param').id).files.uploads.list();
      return c.json({ success: true as const, data: { files } }, 200);
    },

    uploadFile: async (c) => {
      const session = sessions.get(c.get('projectId'), c.req.valid('param').id);
      // All the request's files or none: a client that went away, or a refusal, leaves none of them stored.
      const stored = await session.files.uploadAll(await sentFiles(c, c.req.valid('query').name), c.req.raw.signal);
      return c.json({ success: true as const, data: { files: stored } }, 200);
    },

    deleteFile: async (c) => {
      const { id, name } = c.req.valid('param');
      await sessions.get(c.get('projectId'), id).files.uploads.remove(name);
      return c.json({ success: true as const }, 200);
    },
  };
}

/** The file's bytes, typed by its name and named for saving (RFC 6266, UTF-8 filename*). */
function fileResponse({ info, body }: OpenedFile): Response {
  return new Response(body, {
    status: 200,
    headers: {
      'content-type': info.mimeType,
      'content-length': String(info.size),
      'content-disposition': `attachment; filename*=UTF-8''${encodeURIComponent(info.name)}`,
      'cache-control': 'no-store',
    },
  });
}

/** The files a request carries (the body limit has already bounded it). */
async function sentFiles(c: Context, name: string | undefined): Promise<Array<{ name: string; bytes: Uint8Array; namePath: string }>> {
  const type = c.req.header('content-type') ?? '';
  if (!/^multipart\/form-data/i.test(type)) {
    if (!name) throw invalid('query.name', 'required with a raw body (the file name, e.g. ?name=report.pdf)');
    return [{ name, bytes: new Uint8Array(await c.req.arrayBuffer()), namePath: 'query.name' }];
  }
  const form = await c.req.formData().catch((error: unknown) => {
    // A body past its deadline (body-deadline.ts) is that 408, not a malformed one.
    throw error instanceof DeckhandError ? error : invalid('body', 'not a readable multipart/form-data body');
  });
  const parts = form.getAll('file').filter((part): part is File => typeof part !== 'string');
  if (parts.length === 0) throw invalid('body.file', 'required: one or more file parts named "file"');
  if (parts.length > MAX_FILES_PER_REQUEST) throw invalid('body.file', `${parts.length} file parts, at most ${MAX_FILES_PER_REQUEST} files per request: send them in several requests`);
  if (name && parts.length > 1) throw invalid('query.name', 'names a single file, but the body has several');
  return Promise.all(
    parts.map(async (part) => ({ name: name ?? part.name, bytes: new Uint8Array(await part.arrayBuffer()), namePath: name ? 'query.name' : 'body.file' })),
  );
}

function invalid(path: string, message: string): DeckhandError {
  return new DeckhandError('validation_error', `Invalid request: ${path}: ${message}`, [{ path, message }]);
}
