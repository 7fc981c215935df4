// The walk's output shapes: what the in-page walker yields for each frame, and the arguments it takes.

export interface WalkArgs {
  /** Owner elements (<iframe>, <frame>) of this frame's child frames; a node's `frame` indexes this. */
  frameOwners: Element[];
  /** Walk only this subtree (options.selector); the whole document when absent. */
  root?: Element | null;
  /** Read each control's surroundings (WalkNode.context): a region read per control, done only when asked. */
  context: boolean;
  /**
   * Hand back the elements of the first this many lines an action can target (an id, not a heading) after
   * the result's JSON, for CDP to serialize as nodes, which carry their backend node ids (WalkResult.idLines).
   */
  elementsOf?: number;
  /**
   * Send at most this many lines (and a gap line for each run left out): the outline could not show
   * more within its token budget anyway. None: every line.
   */
  maxLines?: number;
  /** The instruction's words (lowercase), which pick the lines that stay under maxLines. */
  words?: string[];
}

/** One outline line: an element (has `role`) or a text run (has `text`). */
export interface WalkNode {
  depth: number;
  role?: string;
  text?: string;
  name?: string;
  /** Deep XPath inside this frame; set on elements that get an id. */
  xpath?: string;
  tag?: string;
  /** Gets a short id: actionable, scrollable, heading or frame owner. */
  ref?: 1;
  /** Intersects this frame's viewport. */
  inView?: 1;
  value?: string;
  /** A password field with a value; the value itself is not reported. */
  secret?: 1;
  checked?: boolean | 'mixed';
  pressed?: boolean | 'mixed';
  selected?: string;
  options?: string[];
  current?: 1;
  expanded?: boolean;
  disabled?: 1;
  required?: 1;
  href?: string;
  placeholder?: string;
  scrollable?: 1;
  clickable?: 1;
  /** Reacts to the pointer entering it (mouseenter/mouseover handlers): a hover menu, a tooltip. */
  hoverable?: 1;
  /** aria-haspopup: the kind of popup it opens (menu, listbox, dialog, …). */
  popup?: string;
  /** Text of the row, card or list item around the element, with field labels (not printed; for matching). */
  context?: string;
  /** An input's type when it says what the field holds: email, password, date, tel, … (not printed). */
  inputType?: string;
  /** Behind a modal overlay that takes the clicks (not printed; for matching). */
  covered?: 1;
  level?: number;
  /** Index into WalkArgs.frameOwners: this node owns a child frame. */
  frame?: number;
  /** A gap line: this many lines were left out here by the page (WalkArgs.maxLines); `depth` is the first one's. */
  omitted?: number;
  /** How many of the lines left out would have had an id (the ids after them stay the same). */
  omittedRefs?: number;
  /** CDP's backend node id of the element, when the walk was asked for it (set outside the page). */
  backendNodeId?: number;
}

export interface WalkResult {
  title: string;
  nodes: WalkNode[];
  scrollY: number;
  scrollHeight: number;
  viewportHeight: number;
  /** The document was parsed (readyState past 'loading') when it was walked. */
  parsed: boolean;
  /** Indexes into nodes of the lines whose elements follow the JSON (WalkArgs.elementsOf), in order. */
  idLines?: number[];
}

/** A line while the walk builds the tree: its children, before they are flattened by depth. */
export type Line = WalkNode & { kids?: Line[] };
