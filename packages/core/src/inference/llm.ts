// Inference by a language model: prompts from prompts.ts, structured answers through the model
// layer, and checks that every element id the model names exists on the page.
import { DeckhandError } from '../errors.js';
import { validateAgainstSchema } from '../models/json-schema.js';
import type { ModelClient } from '../models/model-client.js';
import type { PageSnapshot } from '../snapshot/types.js';
import { planExtraction } from './extract-plan.js';
import {
  ACT_SCHEMA,
  OBSERVE_SCHEMA,
  actPrompt,
  actSystemPrompt,
  extractPrompt,
  extractSystemPrompt,
  observePrompt,
  observeSystemPrompt,
} from './prompts.js';
import { actAnswerProblem, actionProblem, normalizeActAnswer, readActAnswer } from './act-answer.js';
import type { ChosenAction, Inference } from './types.js';
import { hrefOf, mapFields, urlFieldPaths, withUrlFieldsAsIds, type FieldPath } from './url-fields.js';

export function createLlmInference(client: ModelClient, systemPrompt?: string): Inference {
  return {
    identity: client.identity,

    async chooseAction({ instruction, snapshot, variables, signal, usage }) {
      const answer = await client.generateObject({
        system: actSystemPrompt(systemPrompt),
        prompt: actPrompt(instruction, snapshot, variables),
        schema: ACT_SCHEMA,
        normalize: normalizeActAnswer,
        check: (value) => actAnswerProblem(value, snapshot),
        signal,
        usage,
      });
      return readActAnswer(answer);
    },

    async observe({ instruction, snapshot, signal, usage }) {
      const answer = (await client.generateObject({
        system: observeSystemPrompt(systemPrompt),
        prompt: observePrompt(instruction, snapshot),
        schema: OBSERVE_SCHEMA,
        check: (value) =>
          (value as { elements: ChosenAction[] }).elements.map((a) => actionProblem(a, snapshot)).find(Boolean),
        signal,
        usage,
      })) as { elements: ChosenAction[] };
      return answer.elements;
    },

    async extract({ instruction, schema, snapshot, signal, usage }) {
      const plan = planExtraction(schema);
      const urlPaths = urlFieldPaths(plan.schema);
      const hasUrls = urlPaths.length > 0;
      const answer = await client.generateObject({
        system: extractSystemPrompt(systemPrompt),
        prompt: extractPrompt(instruction, snapshot),
        schema: hasUrls ? withUrlFieldsAsIds(plan.schema, urlPaths) : plan.schema,
        check: (value) => badLinkId(value, urlPaths, snapshot),
        signal,
        usage,
      });
      // Without URL fields the answer was validated against plan.schema itself: nothing to map or recheck.
      if (!hasUrls) return plan.finish(answer);
      const withUrls = mapFields(answer, urlPaths, (id) => (id == null || id === '' ? id : hrefOf(snapshot, id)));
      const problem = validateAgainstSchema(plan.schema, withUrls);
      if (problem) throw new DeckhandError('model_error', `the model's extraction does not match the schema: ${problem}`);
      return plan.finish(withUrls);
    },
  };
}

function badLinkId(value: unknown, paths: FieldPath[], snapshot: PageSnapshot): string | undefined {
  const bad: string[] = [];
  mapFields(value, paths, (id) => {
    if (id != null && id !== '' && !hrefOf(snapshot, id)) bad.push(JSON.stringify(id));
    return id;
  });
  if (bad.length === 0) return undefined;
  return `${bad.join(', ')} ${bad.length > 1 ? 'are not ids of links' : 'is not the id of a link'} on the page: URL fields take the id in square brackets`;
}
