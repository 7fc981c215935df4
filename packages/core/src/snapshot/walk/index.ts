// The walker's in-page modules, shipped with walkFrame (page-walker.ts) as its InPageLib's extra helpers.
import { accessibleNames } from './accessible-name.js';
import { controlContext } from './control-context.js';
import { elementState } from './element-state.js';
import { implicitRole } from './implicit-role.js';
import { lineCap } from './line-cap.js';
import { modalOverlay } from './modal-overlay.js';
import { treeWalk } from './tree-walk.js';
import { walkRules } from './walk-rules.js';

export const WALK_MODULES = { walkRules, implicitRole, accessibleNames, controlContext, elementState, modalOverlay, treeWalk, lineCap };

export type WalkModules = typeof WALK_MODULES;
