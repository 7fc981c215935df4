// Reads the snapshot outline back into lines, for what the element table does not carry: text
// around an element (labels, row contents), select options, heading levels, tables.

export interface OutlineLine {
  index: number;
  depth: number;
  /** Element id, for lines starting with "[id]". */
  id?: string;
  /** Role of an element line; undefined for text lines. */
  role?: string;
  /** Accessible name of an element line, or the text of a text line. */
  name: string;
  /** Listed options of a select (`options="A | B"`). */
  options?: string[];
  level?: number;
}

const ELEMENT_LINE = /^(\s*)(?:\[([^\]]+)\] )?([a-zA-Z][\w-]*)(?: ("(?:[^"\\]|\\.)*"))?(.*)$/;
const TEXT_LINE = /^(\s*)("(?:[^"\\]|\\.)*")\s*$/;

export function parseOutline(text: string): OutlineLine[] {
  const lines: OutlineLine[] = [];
  for (const raw of text.split('\n')) {
    const index = lines.length;
    const textMatch = TEXT_LINE.exec(raw);
    if (textMatch) {
      lines.push({ index, depth: depth(textMatch[1]!), name: unquote(textMatch[2]!) });
      continue;
    }
    const m = ELEMENT_LINE.exec(raw);
    if (!m) continue;
    const rest = m[5] ?? '';
    const options = /options=("(?:[^"\\]|\\.)*")/.exec(rest)?.[1];
    const level = /level=(\d+)/.exec(rest)?.[1];
    lines.push({
      index,
      depth: depth(m[1]!),
      id: m[2],
      role: m[3],
      name: m[4] ? unquote(m[4]) : '',
      ...(options && { options: unquote(options).split(' | ') }),
      ...(level && { level: Number(level) }),
    });
  }
  return lines;
}

/** The page's readable text: text lines and element names, in order. */
export function outlineText(lines: OutlineLine[]): string {
  return lines
    .map((l) => l.name)
    .filter(Boolean)
    .join('\n');
}

/** Lines enclosing line i, innermost first. */
function ancestors(lines: OutlineLine[], i: number): OutlineLine[] {
  const out: OutlineLine[] = [];
  let depthLimit = lines[i]!.depth;
  for (let j = i - 1; j >= 0 && depthLimit > 0; j--) {
    const line = lines[j]!;
    if (line.depth < depthLimit) {
      out.push(line);
      depthLimit = line.depth;
    }
  }
  return out;
}

/**
 * What surrounds line i in the outline: the text just before it (often its label), the names of the
 * lines enclosing it, and their roles.
 */
export function surroundingsOf(lines: OutlineLine[], i: number): { label?: string; groups: string[]; roles: string[] } {
  const enclosing = ancestors(lines, i);
  const groups = enclosing.map((l) => l.name).filter(Boolean);
  const roles = enclosing.flatMap((l) => (l.role ? [l.role] : []));
  for (let j = i - 1; j >= 0 && j >= i - 3; j--) {
    const line = lines[j]!;
    if (line.role === undefined) return { label: line.name, groups, roles };
    if (line.id) break;
  }
  return { groups, roles };
}

function depth(indent: string): number {
  return Math.floor(indent.length / 2);
}

function unquote(quoted: string): string {
  try {
    return JSON.parse(quoted) as string;
  } catch {
    return quoted.slice(1, -1);
  }
}
