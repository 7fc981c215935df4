// extract with an instruction and/or a JSON Schema: the model reads a snapshot (scoped by
// options.selector) and the answer is checked against the caller's schema before it is returned.
import { DeckhandError } from '../errors.js';
import { assertUsableSchema, validateAgainstSchema } from '../models/json-schema.js';
import type { OperationScope } from '../scope/operation-scope.js';
import type { ExtractRequest } from '../types.js';
import { withModel } from '../inference/model-run.js';
import { snapshotOf } from '../snapshot/page-snapshot.js';

export function extractWithModel(scope: OperationScope, request: ExtractRequest): Promise<unknown> {
  const options = request.options ?? {};
  const schema = request.schema;
  if (schema !== undefined) assertUsableSchema(schema);
  return withModel(scope, options.model, 'extract', async (run) => {
    const frame = await scope.frame(request.frameId);
    const snapshot = await snapshotOf(scope, frame, { selector: options.selector, instruction: request.instruction });
    const result = await run.inference.extract({ instruction: request.instruction, schema, snapshot, signal: scope.signal, usage: run.usage });
    const problem = schema ? validateAgainstSchema(schema, result) : typeof (result as { extraction?: unknown }).extraction === 'string' ? undefined : 'no extraction text';
    if (problem) throw new DeckhandError('model_error', `${run.inference.identity} returned an extraction that does not match: ${problem}`);
    scope.log({ category: 'extract', message: 'extracted', level: 1 });
    return result;
  });
}
