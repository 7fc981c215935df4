// A session's files: downloads its pages made (list, fetch, delete), files sent to it and set on a file
// field by the setInputFiles Action (raw body or multipart), and what an ended session's files become.
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { expectError, expectOk, START_BODY, useContract } from '../support/contract';
import { pageText } from '../support/page-log';

const dataDir = mkdtempSync(join(tmpdir(), 'deckhand-files-data-'));
const ctx = useContract({ DECKHAND_DATA_DIR: dataDir });

describe('downloads', () => {
  it('lists, fetches and deletes what the page downloaded, by the name it suggested', async () => {
    const id = await ctx.sessionOn('download.html');
    const click = { input: { selector: '#save', method: 'click', arguments: [], description: 'Save the note' } };
    expectOk(await ctx.api.call('act', { id, body: click }));
    expectOk(await ctx.api.call('act', { id, body: click }));

    const listed = await ctx.api.call('listDownloads', { id });
    expectOk(listed);
    expect(listed.body.data.files).toEqual([
      { name: 'note.txt', size: 14, mimeType: 'text/plain', modifiedAt: expect.any(String) },
      { name: 'note (1).txt', size: 14, mimeType: 'text/plain', modifiedAt: expect.any(String) },
    ]);

    const fetched = await ctx.api.call('getDownload', { id, name: 'note (1).txt' });
    expectOk(fetched);
    expect(fetched.body.toString()).toBe('relay-download');
    expect(fetched.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(fetched.headers.get('content-disposition')).toBe("attachment; filename*=UTF-8''note%20(1).txt");

    expectOk(await ctx.api.call('deleteDownload', { id, name: 'note.txt' }));
    expect((await ctx.api.call('listDownloads', { id })).body.data.files.map((f: { name: string }) => f.name)).toEqual(['note (1).txt']);
    expect(expectError(await ctx.api.call('getDownload', { id, name: 'note.txt' }), 404, 'file_not_found').message).toBe('No download named "note.txt" in this session');
    expectError(await ctx.api.call('deleteDownload', { id, name: 'note.txt' }), 404, 'file_not_found');

    // The files go with the session: an ended session's are gone with it (410).
    expectOk(await ctx.api.call('endSession', { id }));
    expectError(await ctx.api.call('listDownloads', { id }), 410, 'session_gone');
    expectError(await ctx.api.call('getDownload', { id, name: 'note (1).txt' }), 410, 'session_gone');
  });

  it("lists a download also when the client chose the browser's downloadsPath, and leaves the browser's copy there", async () => {
    const id = await ctx.startSession({ browser: { type: 'local', launchOptions: { ...START_BODY.browser.launchOptions, downloadsPath: 'kept' } } });
    expectOk(await ctx.api.call('navigate', { id, body: { url: ctx.fixtures.url('download.html') } }));
    expectOk(await ctx.api.call('act', { id, body: { input: { selector: '#save', method: 'click', arguments: [], description: 'Save the note' } } }));
    expect((await ctx.api.call('listDownloads', { id })).body.data.files.map((f: { name: string }) => f.name)).toEqual(['note.txt']);
    expectOk(await ctx.api.call('endSession', { id }));
    const [project] = readdirSync(dataDir).filter((name) => readdirSync(join(dataDir, name)).includes('kept'));
    const kept = readdirSync(join(dataDir, project!, 'kept'));
    expect(kept.map((name) => readFileSync(join(dataDir, project!, 'kept', name), 'utf8'))).toEqual(['relay-download']);
  });
});

describe('files sent to a session', () => {
  it('stores a raw body and a multipart upload, lists them, and sets them on a file field with setInputFiles', async () => {
    const id = await ctx.sessionOn('upload.html');
    const sent = await ctx.api.call('uploadFile', { id, query: { name: 'report.pdf' }, raw: new TextEncoder().encode('%PDF-1.4 twelve') });
    expectOk(sent);
    expect(sent.body.data.files).toEqual([{ name: 'report.pdf', size: 15, mimeType: 'application/pdf', modifiedAt: expect.any(String) }]);
    const form = new FormData();
    form.append('file', new Blob(['a,b\n1,2\n']), 'data.csv');
    expectOk(await ctx.api.call('uploadFile', { id, raw: form }));
    const listed = await ctx.api.call('listFiles', { id });
    expect(listed.body.data.files.map((f: { name: string; size: number }) => [f.name, f.size]).sort()).toEqual([
      ['data.csv', 8],
      ['report.pdf', 15],
    ]);

    const set = await ctx.api.call('act', {
      id,
      body: { input: { selector: '#attachment', method: 'setInputFiles', arguments: ['report.pdf'], description: 'the Attachment field' } },
    });
    expectOk(set);
    expect(set.body.data.result, JSON.stringify(set.body)).toMatchObject({ success: true });
    expect(await pageText(ctx.api, id, '#log')).toContain('chose: report.pdf 15');

    expectOk(await ctx.api.call('deleteFile', { id, name: 'data.csv' }));
    expectError(await ctx.api.call('deleteFile', { id, name: 'data.csv' }), 404, 'file_not_found');
    expectOk(await ctx.api.call('endSession', { id }));
  });

  it('refuses, naming it, a file that was never sent, and sets nothing', async () => {
    const id = await ctx.sessionOn('upload.html');
    const reply = await ctx.api.call('act', {
      id,
      body: { input: { selector: '#attachment', method: 'setInputFiles', arguments: ['missing.pdf'], description: 'the Attachment field' } },
    });
    expectOk(reply);
    expect(reply.body.data.result.success).toBe(false);
    expect(reply.body.data.result.message).toContain('No file named "missing.pdf" in this session');
    expect(await pageText(ctx.api, id, '#log')).not.toContain('chose');
    expectOk(await ctx.api.call('endSession', { id }));
  });

  it('uploads in natural language with the offline model: a sent file is set, an unsent one is refused by name', async () => {
    const id = await ctx.sessionOn('upload.html');
    const refused = await ctx.api.call('act', { id, body: { input: 'upload report.pdf' } });
    expectOk(refused);
    expect(refused.body.data.result.success).toBe(false);
    expect(refused.body.data.result.message).toContain('No file named "report.pdf" in this session');
    expect(await pageText(ctx.api, id, '#log')).not.toContain('chose');

    expectOk(await ctx.api.call('uploadFile', { id, query: { name: 'report.pdf' }, raw: new TextEncoder().encode('%PDF-1.4') }));
    const uploaded = await ctx.api.call('act', { id, body: { input: 'upload report.pdf to the Attachment field' } });
    expectOk(uploaded);
    expect(uploaded.body.data.result, JSON.stringify(uploaded.body.data.result)).toMatchObject({ success: true, actions: [{ method: 'setInputFiles', arguments: ['report.pdf'] }] });
    expect(await pageText(ctx.api, id, '#log')).toContain('chose: report.pdf 8');
    expectOk(await ctx.api.call('endSession', { id }));
  });

  it('counts a file field hidden behind a styled label: an unnamed upload with two fields is refused naming both, a named one finds it', async () => {
    const id = await ctx.sessionOn('upload-hidden.html');
    expectOk(await ctx.api.call('uploadFile', { id, query: { name: 'report.pdf' }, raw: new TextEncoder().encode('%PDF-1.4') }));
    const ambiguous = await ctx.api.call('act', { id, body: { input: 'upload report.pdf' } });
    expectOk(ambiguous);
    expect(ambiguous.body.data.result.success).toBe(false);
    expect(ambiguous.body.data.result.message).toMatch(/Resume[\s\S]*Avatar/);
    expect(await pageText(ctx.api, id, '#log')).toBe('');
    const named = await ctx.api.call('act', { id, body: { input: 'attach report.pdf to the Resume field' } });
    expectOk(named);
    expect(named.body.data.result, JSON.stringify(named.body.data.result)).toMatchObject({ success: true, actions: [{ method: 'setInputFiles', arguments: ['report.pdf'] }] });
    expect(await pageText(ctx.api, id, '#log')).toBe('resume: report.pdf');
    expectOk(await ctx.api.call('endSession', { id }));
  });

  it('refuses a natural-language upload on a page without a file field', async () => {
    const id = await ctx.sessionOn('forms.html');
    expectOk(await ctx.api.call('uploadFile', { id, query: { name: 'report.pdf' }, raw: new TextEncoder().encode('x') }));
    const reply = await ctx.api.call('act', { id, body: { input: 'upload report.pdf' } });
    expectOk(reply);
    expect(reply.body.data.result).toMatchObject({ success: false, message: expect.stringContaining('no file field to upload "report.pdf" into') });
    expectOk(await ctx.api.call('endSession', { id }));
  });

  it('needs a file name for a raw body, and a name that is one path segment', async () => {
    const id = await ctx.startSession();
    const bytes = new TextEncoder().encode('x');
    expect(expectError(await ctx.api.call('uploadFile', { id, raw: bytes }), 400, 'validation_error').issues?.[0]?.path).toBe('query.name');
    for (const name of ['a/b', '..', 'a\\b']) {
      expectError(await ctx.api.call('uploadFile', { id, query: { name }, raw: bytes }), 400, 'validation_error');
    }
    expectOk(await ctx.api.call('endSession', { id }));
  });
});
