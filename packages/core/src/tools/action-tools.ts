// The page tools an agent drives with, configured by ToolOptions: act, fillForm (several fields in
// one call), observe (the page outline, or the elements an instruction names) and extract.
import { z } from 'zod';
import { act } from '../operations/act.js';
import { extractText } from '../operations/extract-text.js';
import { extractWithModel } from '../operations/model-extract.js';
import { observe } from '../operations/observe.js';
import { snapshotOf } from '../operations/page-snapshot.js';
import type { ActResult } from '../types.js';
import { defineTool } from './tool.js';
import type { ToolOptions } from './tool-options.js';

export function actionTools(options: ToolOptions) {
  const { model, variables, frameId } = options;
  const actOnce = (instruction: string, scope: Parameters<typeof act>[0]) =>
    act(scope, { input: instruction, frameId, options: { model, variables } });

  const actTool = defineTool({
    name: 'act',
    description: 'Perform one action on the page in plain words (click, type, select, check, press a key in a field); values may be %variable% placeholders.',
    input: z.object({ action: z.string().min(1).describe('One single-step action, e.g. "type %email% into the Email field" or "click Sign in"') }),
    readOnly: false,
    handle: ({ action }, scope) => actOnce(action, scope),
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
    handle: async ({ fields }, scope) => {
      const results: ActResult[] = [];
      for (const { field, value } of fields) {
        const result = await actOnce(`fill ${JSON.stringify(value)} into ${field}`, scope);
        results.push(result);
        if (!result.success) break;
      }
      return { success: results.every((r) => r.success) && results.length === fields.length, fields: results.map((r) => ({ success: r.success, message: r.message, actions: r.actions })) };
    },
  });

  const observeTool = defineTool({
    name: 'observe',
    description: 'Read the page: without an instruction its outline (elements with roles, names and values); with one, the elements that match it.',
    input: z.object({ instruction: z.string().optional().describe('What to look for, e.g. "the links in the main menu"; omit for the whole outline') }),
    readOnly: true,
    handle: async ({ instruction }, scope) => {
      if (instruction?.trim()) return { elements: await observe(scope, { instruction, frameId, options: { model } }) };
      const snapshot = await snapshotOf(scope, await scope.frame(frameId), {});
      return { url: snapshot.url, outline: snapshot.text, truncated: snapshot.truncated };
    },
  });

  const extractTool = defineTool({
    name: 'extract',
    description: 'Read information from the page: what an instruction asks for, or all visible text without one.',
    input: z.object({ instruction: z.string().optional().describe('What to extract, e.g. "the price of the Pro plan"') }),
    readOnly: true,
    handle: ({ instruction }, scope) =>
      instruction?.trim() ? extractWithModel(scope, { instruction, frameId, options: { model } }) : extractText(scope, { frameId }),
  });

  return [actTool, fillFormTool, observeTool, extractTool];
}
