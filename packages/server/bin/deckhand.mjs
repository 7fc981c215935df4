#!/usr/bin/env node
// `deckhand serve`: runs the TypeScript entry through tsx (registered here), so the command works
// wherever the package is installed, with no build step.
import { register } from 'tsx/esm/api';

register();
await import('../src/cli.ts');
