// How many screenshots and PDFs a project takes at once: each holds a page's whole bitmap in its browser's
// memory (two wide pages at once took 8 GB), so past the bound a new one is a 429 at once, not a pile-up.
import { DeckhandError } from '../errors.js';
import { KeyedCounts } from '../keyed-counts.js';

/** Pictures (screenshots, PDFs) one project takes at a time; a session takes one at a time already (its turn). */
export const MAX_PROJECT_PICTURES = 2;
const RETRY_AFTER_S = 1;

export class PictureSlots {
  readonly #counts = new KeyedCounts();

  /** Counts a picture against its project, or refuses (429 rate_limited); the returned release ends it. */
  take(projectId: string): () => void {
    if (this.#counts.get(projectId) >= MAX_PROJECT_PICTURES) {
      throw new DeckhandError(
        'rate_limited',
        `The project already has ${MAX_PROJECT_PICTURES} screenshots or PDFs being taken, its bound at a time; retry in ${RETRY_AFTER_S} s`,
        undefined,
        { retryAfterSeconds: RETRY_AFTER_S },
      );
    }
    this.#counts.add(projectId);
    let released = false;
    return () => {
      if (!released) this.#counts.release(projectId);
      released = true;
    };
  }
}
