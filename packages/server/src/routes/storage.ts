// A session's cookies and storage state over HTTP: read them, set them, carry a login to another session.
import type { Handlers } from '../route';
import type { RouteDeps } from './deps';

export function storageHandlers({ sessions }: RouteDeps): Pick<Handlers, 'getCookies' | 'setCookies' | 'getStorageState' | 'setStorageState'> {
  return {
    getCookies: async (c) => {
      const cookies = await sessions.get(c.get('projectId'), c.req.valid('param').id).cookies();
      return c.json({ success: true as const, data: { cookies } }, 200);
    },

    setCookies: async (c) => {
      const cookies = await sessions.get(c.get('projectId'), c.req.valid('param').id).setCookies(c.req.valid('json'));
      return c.json({ success: true as const, data: { cookies } }, 200);
    },

    getStorageState: async (c) => {
      const state = await sessions.get(c.get('projectId'), c.req.valid('param').id).storageState();
      return c.json({ success: true as const, data: state }, 200);
    },

    setStorageState: async (c) => {
      const state = await sessions.get(c.get('projectId'), c.req.valid('param').id).setStorageState(c.req.valid('json'));
      return c.json({ success: true as const, data: state }, 200);
    },
  };
}
