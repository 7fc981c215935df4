// Folders (and top-level files) of each package's src that import each other, from `madge --json` on
// stdin: an import inside such a circle runs back up the layers. See docs/structure.md for the command.
import { readFileSync } from 'node:fs';

const graph = JSON.parse(readFileSync(0, 'utf8'));
const unitOf = (file) => file.match(/^([^/]+\/src\/[^/]+)/)?.[1] ?? file;
const edges = new Map();
for (const [from, tos] of Object.entries(graph)) {
  for (const to of tos) {
    const [a, b] = [unitOf(from), unitOf(to)];
    if (a === b) continue;
    if (!edges.has(a)) edges.set(a, new Map());
    edges.get(a).set(b, [...(edges.get(a).get(b) ?? []), `${from} -> ${to}`]);
  }
}

// Tarjan's strongly connected components over the folder graph.
let counter = 0;
const index = new Map();
const low = new Map();
const stack = [];
const circles = [];
function visit(v) {
  index.set(v, counter);
  low.set(v, counter++);
  stack.push(v);
  for (const w of edges.get(v)?.keys() ?? []) {
    if (!index.has(w)) {
      visit(w);
      low.set(v, Math.min(low.get(v), low.get(w)));
    } else if (stack.includes(w)) low.set(v, Math.min(low.get(v), index.get(w)));
  }
  if (low.get(v) !== index.get(v)) return;
  const circle = [];
  for (let w; w !== v; ) circle.push((w = stack.pop()));
  if (circle.length > 1) circles.push(circle);
}
for (const file of Object.keys(graph)) if (!index.has(unitOf(file))) visit(unitOf(file));

let inside = 0;
for (const circle of circles) {
  console.log(`folder circle: ${circle.join(' <-> ')}`);
  for (const a of circle) {
    for (const [b, imports] of edges.get(a) ?? []) {
      if (!circle.includes(b)) continue;
      inside += imports.length;
      console.log(`  ${a} -> ${b}: ${imports.join('; ')}`);
    }
  }
}
console.log(`folder circles: ${circles.length}; imports inside them: ${inside}`);
