// The selector language (docs/selectors.md): CSS or deep XPaths, read to a Playwright handle or a CDP
// backend node id, written from an element in the page. The parser, the in-page walker and the
// writer are this folder's own; everything else asks here.

export { directLocator, plainQuery, resolveTarget, type PlainQuery, type Resolution, type ResolvedTarget } from './resolve-target.js';
export { resolveBackendNodeId, resolveBackendNodeIds } from './backend-node.js';
export { resolvePinned } from './remote-element.js';
export { framePrefix } from './frame-path.js';
export { inPage, type InPageLib } from './in-page.js';
