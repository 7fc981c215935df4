// Size bounds on what a request asks an operation to read: instructions, system prompts, variables and
// extract schemas. Parsing an instruction, masking a session's secrets and walking a schema all grow
// with these, faster than linearly in places; one request of megabytes held the event loop for
// seconds. The bounds are far above real use, and crossing one is a 400 that names it, before any work.
import { DeckhandError } from './errors.js';
import type { ActRequest, AgentExecuteRequest, ExtractRequest, ObserveRequest, StartRequest, Variables } from './types.js';

export const REQUEST_BOUNDS = {
  /**
   * act input, observe and extract instruction: one step, or one question, in words. The offline
   * model's reading of an instruction grows faster than its length (10,000 characters held the event
   * loop for over a second); at 2,000 it stays well under 0.1 s on a quiet machine.
   */
  instructionChars: 2_000,
  /** agentExecute's instruction (a task), and a system prompt. */
  taskChars: 20_000,
  variables: 100,
  variableNameChars: 100,
  variableValueChars: 10_000,
  variableDescriptionChars: 2_000,
  /** Variable values a session holds as secrets: every read-back is masked against all of them. */
  sessionSecrets: 1_000,
  schemaProperties: 500,
  schemaDepth: 16,
} as const;

const count = (n: number) => n.toLocaleString('en-US');

/** The 400 for a bound crossed at `path`. */
export function refuse(path: string, message: string): never {
  throw new DeckhandError('validation_error', `Invalid request: ${path}: ${message}`, [{ path, message }]);
}

/** A text field at most `max` characters long (absent is fine). */
export function boundText(path: string, text: string | undefined, max: number): void {
  if (text !== undefined && text.length > max) refuse(path, `longer than ${count(max)} characters (${count(text.length)})`);
}

export function boundVariables(path: string, variables: Variables | undefined): void {
  if (!variables) return;
  const entries = Object.entries(variables);
  if (entries.length > REQUEST_BOUNDS.variables) refuse(path, `more than ${count(REQUEST_BOUNDS.variables)} variables (${count(entries.length)})`);
  for (const [name, variable] of entries) {
    const at = `${path}.${name.slice(0, REQUEST_BOUNDS.variableNameChars)}`;
    if (name.length > REQUEST_BOUNDS.variableNameChars) refuse(at, `a variable name longer than ${count(REQUEST_BOUNDS.variableNameChars)} characters`);
    const { value, description } = typeof variable === 'object' ? variable : { value: variable, description: undefined };
    boundText(at, String(value), REQUEST_BOUNDS.variableValueChars);
    boundText(`${at}.description`, description, REQUEST_BOUNDS.variableDescriptionChars);
  }
}

/** Keywords whose value is one subschema, a list of them, or a map of names to them. */
const ONE = new Set(['items', 'additionalProperties', 'additionalItems', 'not', 'contains', 'if', 'then', 'else', 'propertyNames', 'unevaluatedProperties', 'unevaluatedItems']);
const LIST = new Set(['anyOf', 'oneOf', 'allOf', 'prefixItems', 'items']);
const MAP = new Set(['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas']);

/** An extract schema: at most REQUEST_BOUNDS.schemaProperties properties in all, subschemas nested at most schemaDepth deep. */
export function boundSchema(path: string, schema: unknown): void {
  const stack: Array<{ node: unknown; depth: number }> = [{ node: schema, depth: 0 }];
  let properties = 0;
  while (stack.length > 0) {
    const { node, depth } = stack.pop()!;
    if (node === null || typeof node !== 'object' || Array.isArray(node)) continue;
    if (depth > REQUEST_BOUNDS.schemaDepth) refuse(path, `subschemas nested deeper than ${REQUEST_BOUNDS.schemaDepth} levels`);
    for (const [keyword, value] of Object.entries(node)) {
      if (value === null || typeof value !== 'object') continue;
      const children = MAP.has(keyword) && !Array.isArray(value) ? Object.values(value) : LIST.has(keyword) && Array.isArray(value) ? value : ONE.has(keyword) ? [value] : [];
      if (keyword === 'properties') properties += children.length;
      for (const child of children) stack.push({ node: child, depth: depth + 1 });
    }
    if (properties > REQUEST_BOUNDS.schemaProperties) refuse(path, `more than ${count(REQUEST_BOUNDS.schemaProperties)} properties in all`);
  }
}

const { instructionChars, taskChars } = REQUEST_BOUNDS;

export function boundAct(req: ActRequest): void {
  if (typeof req.input === 'string') boundText('body.input', req.input, instructionChars);
  boundVariables('body.options.variables', req.options?.variables);
}

export function boundObserve(req: ObserveRequest): void {
  boundText('body.instruction', req.instruction, instructionChars);
  boundVariables('body.options.variables', req.options?.variables);
}

export function boundExtract(req: ExtractRequest): void {
  boundText('body.instruction', req.instruction, instructionChars);
  if (req.schema !== undefined) boundSchema('body.schema', req.schema);
}

export function boundAgent(req: AgentExecuteRequest): void {
  boundText('body.executeOptions.instruction', req.executeOptions.instruction, taskChars);
  boundText('body.agentConfig.systemPrompt', req.agentConfig.systemPrompt, taskChars);
  boundVariables('body.executeOptions.variables', req.executeOptions.variables);
}

export function boundStart(req: StartRequest): void {
  boundText('body.systemPrompt', req.systemPrompt, taskChars);
}
