// The cluster secret on internal requests: presented in one header, compared in constant time (digests of
// equal length, so neither the length nor a prefix of the secret leaks through timing).
import { createHash, timingSafeEqual } from 'node:crypto';
import { internalHeaders } from './keys';

export interface ClusterSecret {
  /** The headers an internal request carries: the secret and, when the request had one, the project. */
  headersFor(projectId: string | undefined): Record<string, string>;
  /** Whether a presented value is the secret. */
  matches(presented: string | undefined | null): boolean;
}

export function clusterSecret(secret: string): ClusterSecret {
  const digest = (value: string) => createHash('sha256').update(value).digest();
  const expected = digest(secret);
  return {
    headersFor: (projectId) => ({ [internalHeaders.secret]: secret, ...(projectId === undefined ? {} : { [internalHeaders.project]: projectId }) }),
    matches: (presented) => typeof presented === 'string' && presented.length > 0 && timingSafeEqual(digest(presented), expected),
  };
}
