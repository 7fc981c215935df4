// The built-in model's words are read once per text and remembered: what a caller does with the list it
// was given must not change what the next reading of the same text gives.
import { describe, expect, it } from 'vitest';
import { stems, tokens } from '../src/inference/builtin/words.js';

describe('built-in model: remembered words', () => {
  it('gives each caller a list of its own', () => {
    const text = 'Sign in to the e-mail check-out page';
    const first = tokens(text);
    expect(first).toEqual(['signin', 'to', 'the', 'email', 'checkout', 'page']);
    first.splice(0, first.length, 'changed');
    expect(tokens(text)).toEqual(['signin', 'to', 'the', 'email', 'checkout', 'page']);
    const stemmed = stems('Removing the addresses');
    stemmed.push('more');
    expect(stems('Removing the addresses')).toEqual(['remov', 'address']);
  });
});
