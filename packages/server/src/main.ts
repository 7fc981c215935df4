// Entry point for `npm start` (Node, via tsx) and `bun packages/server/src/main.ts`.
import { runServer } from './run-server';

await runServer(process.env);
