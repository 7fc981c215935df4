// Reads what a fixture page logged (its #log lines, in every frame) through extract's pageText.
import type { Driver } from './drivers';
import { expectOk } from './contract';

export async function pageText(api: Driver, id: string, selector?: string): Promise<string> {
  const reply = await api.call('extract', { id, body: selector ? { options: { selector } } : {}, headers: { 'x-stream-response': 'false' } });
  expectOk(reply);
  return reply.body.data.result.pageText as string;
}
