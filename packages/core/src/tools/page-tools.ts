// The page tools every caller of the core has: go to a URL, act, observe and extract, each the
// session operation of the same name.
import { z } from 'zod';
import { act } from '../operations/act.js';
import { extractText } from '../operations/extract-text.js';
import { extractWithModel } from '../operations/model-extract.js';
import { navigate } from '../operations/navigate.js';
import { observe } from '../operations/observe.js';
import { REQUEST_BOUNDS } from '../request-bounds.js';
import { defineTool } from './tool.js';

const { instructionChars } = REQUEST_BOUNDS;

export const navigateTool = defineTool({
  name: 'navigate',
  description: 'Open a URL in the browser page.',
  input: z.object({ url: z.string().min(1).describe('The address to open, e.g. https://example.com') }),
  readOnly: false,
  handle: ({ url }, scope) => navigate(scope, { url }),
});

export const actTool = defineTool({
  name: 'act',
  description: 'Perform one action on the page, described in plain words (e.g. "click the Sign in button").',
  input: z.object({ action: z.string().min(1).max(instructionChars).describe('One single-step action, e.g. "type hello into the search box"') }),
  readOnly: false,
  handle: ({ action }, scope) => act(scope, { input: action }),
});

export const observeTool = defineTool({
  name: 'observe',
  description: 'List the elements of the page that match an instruction, each with the action it would take.',
  input: z.object({ instruction: z.string().min(1).max(instructionChars).describe('What to look for, e.g. "the links in the main menu"') }),
  readOnly: true,
  handle: ({ instruction }, scope) => observe(scope, { instruction }),
});

export const extractTool = defineTool({
  name: 'extract',
  description: 'Read information from the page: the text asked for by an instruction, or all visible text without one.',
  input: z.object({ instruction: z.string().max(instructionChars).optional().describe('What to extract, e.g. "the price of the Pro plan"') }),
  readOnly: true,
  handle: ({ instruction }, scope) => (instruction?.trim() ? extractWithModel(scope, { instruction }) : extractText(scope, {})),
});

export const PAGE_TOOLS = [navigateTool, actTool, observeTool, extractTool];
