// Where a cluster's nodes keep signed cache entries for each other (Redis, server/src/cluster): in place
// of the disk, behind the same in-memory LRU and the same signature check. A failure reads as a miss.

export interface SharedEntries {
  /** The stored text under `name` (`<kind>/<project digest>/<key>`), or undefined. */
  read(name: string): Promise<string | undefined>;
  write(name: string, text: string): Promise<void>;
  remove(name: string): Promise<void>;
}
