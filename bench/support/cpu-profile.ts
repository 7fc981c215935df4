// Reads a V8 CPU profile (`node --cpu-prof`) into the functions and files that took the most self time,
// over a window of the run only (the server's start, which compiles TypeScript, is not what a request costs).
import { readFileSync } from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}
interface Profile {
  nodes: ProfileNode[];
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}

export interface SelfTime {
  name: string;
  ms: number;
  share: number;
}

/** Where a frame's code lives: a package of node_modules, a file of ours, or V8 / Node itself. */
function place(url: string): string {
  if (!url) return '(V8 / native)';
  const modules = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (modules) return modules[1]!;
  const ours = /\/((?:packages|test|bench)\/.*)$/.exec(url);
  if (ours) return ours[1]!;
  return url.startsWith('node:') ? url : url.replace(/^.*\//, '');
}

/**
 * Self time per function and per file over [fromUs, toUs] (CLOCK_MONOTONIC µs, the clock of
 * `process.hrtime`, which the profile's timestamps share on Linux); idle and GC are listed as such.
 */
export function selfTimes(file: string, fromUs: number, toUs: number): { total: number; frames: SelfTime[]; places: SelfTime[] } {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const frames = new Map<string, number>();
  const places = new Map<string, number>();
  let at = profile.startTime;
  let total = 0;
  for (let i = 0; i < profile.samples.length; i++) {
    const delta = profile.timeDeltas[i] ?? 0;
    at += delta;
    if (at < fromUs || at > toUs) continue;
    const frame = byId.get(profile.samples[i]!)!.callFrame;
    const where = place(frame.url);
    const name = `${frame.functionName || '(anonymous)'} ${where}${frame.url ? `:${frame.lineNumber + 1}` : ''}`;
    frames.set(name, (frames.get(name) ?? 0) + delta / 1000);
    if (frame.functionName !== '(idle)') {
      places.set(where, (places.get(where) ?? 0) + delta / 1000);
      total += delta / 1000;
    }
  }
  const rank = (map: Map<string, number>) =>
    [...map].map(([name, ms]) => ({ name, ms, share: ms / total })).filter((row) => !row.name.startsWith('(idle)')).sort((a, b) => b.ms - a.ms);
  return { total, frames: rank(frames), places: rank(places) };
}
