// The page tools a model drives in words, configured by ToolOptions: act, fillForm (several fields
// in one call), select (an option of a drop-down list), observe (the elements an instruction names), outline (the page's elements with
// roles, names and values) and extract.
import { z } from 'zod';
import { act } from '../act/act.js';
import { extractText } from '../operations/extract-text.js';
import { extractWithModel } from '../operations/model-extract.js';
import { observe } from '../operations/observe.js';
import { snapshotOf } from '../snapshot/page-snapshot.js';
import { REQUEST_BOUNDS } from '../request-bounds.js';
import type { ActResult } from '../types.js';
import { pageSentence, pageStateOf, type PageState } from './page-state.js';
import { defineTool, type ToolView } from './tool.js';
import type { ToolOptions } from './tool-options.js';

const { instructionChars } = REQUEST_BOUNDS;

/** An element observe found: the Action shape of the HTTP API (more fields may come; they pass). */
const elementSchema = z.looseObject({
  selector: z.string(),
  description: z.string(),
  backendNodeId: z.number().optional(),
  method: z.string().optional(),
  arguments: z.array(z.string()).optional(),
});

export function actionTools(options: ToolOptions) {
  const { model, variables, frameId } = options;
  const actOnce = (instruction: string, scope: Parameters<typeof act>[0]) =>
    act(scope, { input: instruction, frameId, options: { model, variables } });

  const actTool = defineTool({
    name: 'act',
    description: 'Perform one action on the page in plain words (click, type, select, check, press a key in a field); values may be %variable% placeholders.',
    input: z.object({ action: z.string().min(1).max(instructionChars).describe('One single-step action, e.g. "type %email% into the Email field" or "click Sign in"') }),
    readOnly: false,
    capability: 'core',
    record: { actions: (input, output) => [{ instruction: (input as { action: string }).action, result: output as ActResult }] },
    handle: async ({ action }, scope) => ({ ...(await actOnce(action, scope)), ...(await pageStateOf(scope)) }),
    view: (result) => actView(result),
  });

  const fillFormTool = defineTool({
    name: 'fillForm',
    description: 'Fill several form fields in one call, in order; values may be %variable% placeholders.',
    input: z.object({
      fields: z
        .array(z.object({ field: z.string().min(1).describe('The field, e.g. "the Email field"'), value: z.string().describe('What to type, e.g. "%email%"') }))
        .min(1),
    }),
    readOnly: false,
    capability: 'agent',
    record: {
      actions: (input, output) =>
        ((output as { fields?: Array<Partial<ActResult>> }).fields ?? []).map((result, i) => {
          const field = (input as { fields: Array<{ field: string; value: string }> }).fields[i];
          return { instruction: field ? `fillForm: ${field.field} = ${field.value}` : 'fillForm', result };
        }),
    },
    handle: async ({ fields }, scope) => {
      const results: ActResult[] = [];
      for (const { field, value } of fields) {
        const result = await actOnce(`fill ${JSON.stringify(value)} into ${field}`, scope);
        results.push(result);
        if (!result.success) break;
      }
      return { success: results.every((r) => r.success) && results.length === fields.length, fields: results.map((r) => ({ success: r.success, message: r.message, actions: r.actions })) };
    },
    view: (result) => ({ text: result.fields.map((f) => f.message).join(' '), failed: !result.success }),
  });

  const selectTool = defineTool({
    name: 'select',
    description: 'Choose an option of a drop-down list, both named in plain words.',
    input: z.object({
      field: z.string().min(1).max(instructionChars).describe('The list, e.g. "the Color list"'),
      option: z.string().min(1).max(instructionChars).describe('The option to choose, e.g. "Green"'),
    }),
    readOnly: false,
    capability: 'page',
    record: { actions: (input, output) => [{ instruction: selectInstruction(input as { field: string; option: string }), result: output as ActResult }] },
    handle: async (input, scope) => ({ ...(await actOnce(selectInstruction(input), scope)), ...(await pageStateOf(scope)) }),
    view: (result) => actView(result),
  });

  const observeTool = defineTool({
    name: 'observe',
    description: 'List the elements of the page that match an instruction, each with the action it would take.',
    input: z.object({ instruction: z.string().min(1).max(instructionChars).describe('What to look for, e.g. "the links in the main menu"') }),
    output: z.object({ elements: z.array(elementSchema) }),
    readOnly: true,
    capability: 'core',
    handle: async ({ instruction }, scope) => ({ elements: await observe(scope, { instruction, frameId, options: { model } }) }),
    view: (result) => ({ text: JSON.stringify(result), structured: result }),
  });

  const outlineTool = defineTool({
    name: 'outline',
    description: "Read the page's outline: its elements with their roles, names and values, as a screen reader would.",
    input: z.object({}),
    output: z.object({ url: z.string(), outline: z.string(), truncated: z.boolean() }),
    readOnly: true,
    capability: 'read',
    handle: async (_input, scope) => {
      const snapshot = await snapshotOf(scope, await scope.frame(frameId), {});
      return { url: snapshot.url, outline: snapshot.text, truncated: snapshot.truncated };
    },
    view: (result) => ({ text: result.outline, structured: result }),
  });

  const extractTool = defineTool({
    name: 'extract',
    description: 'Read information from the page: what an instruction asks for, or all visible text without one.',
    input: z.object({ instruction: z.string().max(instructionChars).optional().describe('What to extract, e.g. "the price of the Pro plan"') }),
    output: z.object({ extraction: z.unknown() }),
    readOnly: true,
    capability: 'core',
    handle: ({ instruction }, scope) =>
      instruction?.trim() ? extractWithModel(scope, { instruction, frameId, options: { model } }) : extractText(scope, { frameId }),
    view: (result) => {
      // The model's answer ({extraction}) or, without an instruction, the page's text ({pageText}).
      const record = result as Record<string, unknown>;
      const structured = { extraction: record.extraction ?? record.pageText ?? record };
      return { text: JSON.stringify(structured), structured };
    },
  });

  return [actTool, fillFormTool, selectTool, observeTool, outlineTool, extractTool];
}

const selectInstruction = ({ field, option }: { field: string; option: string }) => `select ${JSON.stringify(option)} from ${field}`;

/** An act's own sentence says what was done, or why not; then where that left the page. */
function actView(result: ActResult & PageState): ToolView {
  return { text: `${result.message}${/[.!?]$/.test(result.message) ? '' : '.'} ${pageSentence(result)}`, failed: !result.success };
}
