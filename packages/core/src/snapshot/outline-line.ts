// One outline line per node: `[id] role "name" state…` for elements, a quoted string for text.

import type { WalkNode } from './page-walker.js';

const INDENT = '  ';

/** `id` is the short id for nodes that get one. */
export function renderLine(node: WalkNode, id?: string): string {
  if (node.omitted !== undefined) return gapLine(node.depth);
  const indent = INDENT.repeat(node.depth);
  if (node.text !== undefined) return indent + JSON.stringify(node.text);
  let line = indent + (id ? `[${id}] ` : '') + node.role;
  if (node.name) line += ' ' + JSON.stringify(node.name);
  if (node.level) line += ` level=${node.level}`;
  if (node.value !== undefined) line += ` value=${JSON.stringify(node.value)}`;
  if (node.placeholder) line += ` placeholder=${JSON.stringify(node.placeholder)}`;
  if (node.selected !== undefined) line += ` selected=${JSON.stringify(node.selected)}`;
  if (node.options) line += ` options=${JSON.stringify(node.options.join(' | '))}`;
  if (node.checked !== undefined) line += node.checked === 'mixed' ? ' mixed' : node.checked ? ' checked' : ' unchecked';
  if (node.pressed !== undefined) line += node.pressed === 'mixed' ? ' pressed=mixed' : node.pressed ? ' pressed' : '';
  if (node.expanded !== undefined) line += node.expanded ? ' expanded' : ' collapsed';
  if (node.current) line += ' current';
  if (node.disabled) line += ' disabled';
  if (node.required) line += ' required';
  if (node.popup) line += ` haspopup=${node.popup}`;
  if (node.clickable) line += ' clickable';
  if (node.hoverable) line += ' hoverable';
  if (node.scrollable) line += ' scrollable';
  if (node.href) line += ` -> ${node.href}`;
  return line;
}

/** The `…` marker standing in for omitted lines, at the depth of the first one. */
export function gapLine(depth: number): string {
  return INDENT.repeat(depth) + '…';
}
