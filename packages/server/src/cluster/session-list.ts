// GET /v1/sessions on a cluster: the project's sessions on every node, read from the registry (the
// project's ZSET of sessions by start time, then each session's hash), a page at a time, in the order
// and with the cursors one process gives. A session another node runs reads `ready`: only its node
// knows it is busy at this moment.
import { cursorPosition, DEFAULT_PAGE_SIZE, pageOfSessions, type ListedSession, type SessionPage, type SessionState } from '@deckhand/core';
import { keys } from './keys';
import type { RedisLink } from './redis';

/** Passes over the list when some of its sessions' hashes have expired (each pass drops those it met). */
const PASSES = 3;
const END_STATES = new Set(['ended', 'crashed', 'expired']);

/** `stateHere`: a session this node runs, as it is now; undefined for another node's. */
export async function listClusterSessions(redis: RedisLink, projectId: string, page: { limit?: number; cursor?: string }, stateHere: (sessionId: string) => SessionState | undefined): Promise<SessionPage> {
  const limit = page.limit ?? DEFAULT_PAGE_SIZE;
  const after = page.cursor === undefined ? undefined : cursorPosition(page.cursor);
  const key = keys.projectSessions(projectId);
  for (let pass = 1; ; pass++) {
    const { listed, expired } = await redis.run(async (client) => {
      // Sessions that started in the cursor's millisecond may sort either side of it: fetch them all, and the page after.
      const ties = after ? await client.zCount(key, after.startedAt, after.startedAt) : 0;
      const count = limit + 1 + ties;
      const members = await client.zRangeWithScores(key, after ? after.startedAt : '+inf', '-inf', { BY: 'SCORE', REV: true, LIMIT: { offset: 0, count } });
      // Cut inside the last millisecond fetched: the rest of it too, so the page's order by id is whole.
      const lowest = members.length === count ? members.at(-1)!.score : undefined;
      const rest = lowest === undefined ? [] : await client.zRangeWithScores(key, lowest, lowest, { BY: 'SCORE' });
      const ids = [...new Set([...members, ...rest].map((member) => member.value))];
      const hashes = await Promise.all(ids.map((id) => client.hGetAll(keys.session(id))));
      const found: ListedSession[] = [];
      const gone: string[] = [];
      ids.forEach((sessionId, i) => {
        const hash = hashes[i] as Record<string, string>;
        if (hash.project !== projectId) return void gone.push(sessionId);
        found.push({ sessionId, state: stateOf(hash, stateHere(sessionId)), startedAt: Number(hash.startedAt), ...(hash.endedAt ? { endedAt: Number(hash.endedAt) } : {}) });
      });
      if (gone.length > 0) await client.zRem(key, gone);
      return { listed: found, expired: gone.length };
    });
    // Expired entries were counted in the fetch: read again without them, so a short page still means the last.
    if (expired === 0 || pass === PASSES) return pageOfSessions(listed, page);
  }
}

/** A running session: as its node says (here), else ready; a stopped one: how it stopped; one lost with its node: crashed (its browser went with it). */
function stateOf(hash: Record<string, string>, here: SessionState | undefined): ListedSession['state'] {
  if (hash.state === 'running') return (here ?? 'ready') as ListedSession['state'];
  if (hash.state === 'lost') return 'crashed';
  return (END_STATES.has(hash.reason ?? '') ? hash.reason : 'ended') as ListedSession['state'];
}
