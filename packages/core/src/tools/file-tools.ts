// Handing files to the page: `upload` puts files of the project's data directory (and nowhere else:
// the relay's own check, browser/cdp/relay-allowlist.ts) into a file field, named by its label or, when
// the page has exactly one, found alone.
import type { Locator } from 'playwright-core';
import { z } from 'zod';
import { basename } from 'node:path';
import { confinedFiles } from '../browser/cdp/relay-allowlist.js';
import { ActionFailure } from '../act/action-failure.js';
import { checkFileField } from '../act/file-input-check.js';
import { DeckhandError } from '../errors.js';
import type { OperationScope } from '../scope/operation-scope.js';
import { pageSentence, pageStateOf } from './page-state.js';
import { defineTool } from './tool.js';
import type { ToolOptions } from './tool-options.js';

/** The file field `field` labels, else the page's only one; one field or a refusal saying why. */
async function fileField(scope: OperationScope, options: ToolOptions, field: string | undefined): Promise<Locator> {
  const frame = await scope.frame(options.frameId);
  const inputs = frame.locator('input[type=file]');
  const chosen = field ? inputs.and(frame.getByLabel(field)) : inputs;
  const count = await scope.deadline.race(chosen.count());
  if (count === 1) return chosen;
  if (field) throw new DeckhandError('validation_error', `${count === 0 ? 'No' : count} file field${count === 1 ? '' : 's'} labelled "${field}"`);
  throw new DeckhandError('validation_error', `The page has ${count} file fields: name the one to use by its label in field`);
}

export function fileTools(options: ToolOptions) {
  const uploadTool = defineTool({
    name: 'upload',
    description: "Put files from the project's data directory into a file field of the page.",
    input: z.object({
      files: z.array(z.string().min(1).max(1000)).min(1).max(20).describe("Paths relative to the project's data directory"),
      field: z.string().min(1).max(2000).optional().describe('The label of the file field, e.g. "Attachment"; may be left out when the page has only one'),
    }),
    readOnly: false,
    capability: 'files',
    handle: async ({ files, field }, scope) => {
      const confined = await confinedFiles(files, 'files', scope);
      if ('refused' in confined) throw new DeckhandError('validation_error', confined.refused);
      const input = await fileField(scope, options, field);
      const timeout = scope.deadline.remaining(10_000);
      await scope.deadline.race(checkFileField(input, confined.paths.map((p) => basename(p)), timeout)).catch((error: unknown) => {
        throw error instanceof ActionFailure ? new DeckhandError('validation_error', error.message) : error;
      });
      await scope.deadline.race(input.setInputFiles(confined.paths, { timeout: scope.deadline.remaining(10_000) }));
      return { uploaded: files, ...(await pageStateOf(scope)) };
    },
    view: (result) => ({ text: `Put ${result.uploaded.join(', ')} into the file field. ${pageSentence(result)}` }),
  });
  return [uploadTool];
}
