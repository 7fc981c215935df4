#!/usr/bin/env node
// Runs the TypeScript entry through tsx, so `npx deckhand-mcp` works from a checkout without a build.
import { register } from 'tsx/esm/api';

register();
await import('../src/main.ts');
