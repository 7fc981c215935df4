// A provider's computer action as a call of the agent's own tools: the same coordinate tools hybrid
// mode offers (so bounds, variables, timeouts and records work alike), plus wait, screenshot,
// navigate and back. An action this server does not do has no tool: the model hears that it failed.
import type { ComputerAction } from '../models/computer-use.js';

export type ToolInvocation = { tool: string; input: unknown } | { unsupported: string };

export function toolFor(action: ComputerAction): ToolInvocation {
  switch (action.type) {
    case 'click':
      return { tool: 'click', input: { x: action.x, y: action.y, button: action.button } };
    case 'double_click':
      return { tool: 'doubleClick', input: { x: action.x, y: action.y } };
    case 'type':
      return { tool: 'type', input: { text: action.text } };
    case 'keypress':
      return { tool: 'keypress', input: { keys: action.keys } };
    case 'scroll':
      return { tool: 'scrollAt', input: { x: action.x, y: action.y, dx: action.dx, dy: action.dy } };
    case 'drag':
      return { tool: 'drag', input: { path: action.path } };
    case 'move':
      return { tool: 'hover', input: { x: action.x, y: action.y } };
    case 'wait':
      return { tool: 'wait', input: { ms: action.ms } };
    case 'screenshot':
      return { tool: 'screenshot', input: {} };
    case 'goto':
      return { tool: 'navigate', input: { url: action.url } };
    case 'back':
      return { tool: 'back', input: {} };
    case 'unsupported':
      return { unsupported: `${action.what} is not supported by this server` };
  }
}
