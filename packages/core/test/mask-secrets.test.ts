// Masking of secret values in read-backs: long values wherever they occur, short ones only where they
// stand alone, every string of a result, the longest value first.
import { describe, expect, it } from 'vitest';
import { MASK, maskSecrets, maskSecretsDeep } from '../src/secrets/mask-secrets.js';

describe('maskSecrets', () => {
  it('masks a value of four or more characters wherever it occurs, inside words too', () => {
    expect(maskSecrets('Preview: xhunter2y and hunter2', ['hunter2'])).toBe(`Preview: x${MASK}y and ${MASK}`);
  });

  it('masks a value of three characters or fewer only where it stands alone', () => {
    expect(maskSecrets('at: the cats sat at home (at)', ['at'])).toBe(`${MASK}: the cats sat ${MASK} home (${MASK})`);
    expect(maskSecrets('PIN 12, room 1234', ['12'])).toBe(`PIN ${MASK}, room 1234`);
  });

  it('masks a value that contains another as a whole, and takes regex characters literally', () => {
    expect(maskSecrets('key: abc-secret-def', ['secret', 'abc-secret-def'])).toBe(`key: ${MASK}`);
    expect(maskSecrets('a.b a+b', ['a+b'])).toBe(`a.b ${MASK}`);
    expect(maskSecrets('$& and $1', ['$&'])).toBe(`${MASK} and $1`);
  });

  it('masks every string of a result and leaves other values and keys alone', () => {
    const result = { Note: 'hunter2', count: 7, list: ['ok hunter2', null, true], nested: { hunter2: 'x' } };
    expect(maskSecretsDeep(result, ['hunter2'])).toEqual({ Note: MASK, count: 7, list: [`ok ${MASK}`, null, true], nested: { hunter2: 'x' } });
    expect(result.Note).toBe('hunter2');
  });
});
