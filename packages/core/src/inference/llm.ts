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
import { PAGE_ELEMENT_ID, type ChosenAction, type Inference } from './types.js';
import { hrefOf, mapFields, urlFieldPaths, withUrlFieldsAsIds, type FieldPath } from './url-fields.js';

/** Methods that make sense on the page as a whole, so may carry PAGE_ELEMENT_ID. */
const PAGE_METHODS = new Set(['scrollTo', 'nextChunk', 'prevChunk', 'press']);

export function createLlmInference(client: ModelClient, systemPrompt?: string): Inference {
  return {
    identity: client.identity,

    async chooseAction({ instruction, snapshot, variables, signal, usage }) {
      const answer = (await client.generateObject({
        system: actSystemPrompt(systemPrompt),
        prompt: actPrompt(instruction, snapshot, variables),
        schema: ACT_SCHEMA,
        check: (value) => {
          const { failure, ...action } = value as ChosenAction & { failure: string };
          return failure.trim() ? undefined : actionProblem(action, snapshot);
        },
        signal,
        usage,
      })) as ChosenAction & { failure: string };
      const { failure, ...action } = answer;
      return failure.trim() ? { failure: failure.trim() } : action;
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

function actionProblem(action: ChosenAction, snapshot: PageSnapshot): string | undefined {
  const known = (id: string) => snapshot.elements.has(id);
  if (action.elementId === PAGE_ELEMENT_ID && !PAGE_METHODS.has(action.method)) {
    return `elementId is empty but ${action.method} needs an element: use an id shown in square brackets`;
  }
  if (action.elementId !== PAGE_ELEMENT_ID && !known(action.elementId)) {
    return `element id "${action.elementId}" is not in the page outline: use an id shown in square brackets`;
  }
  if (action.method === 'dragAndDrop' && !known(action.arguments[0] ?? '')) {
    return 'dragAndDrop needs the id of the element to drop onto as its one argument';
  }
  return undefined;
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
