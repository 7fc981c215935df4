// What act, observe and extract ask of a model, answered by an LLM or the built-in offline model.
export { createInference, type InferenceContext } from './create-inference.js';
export {
  ACTION_METHODS,
  GO_BACK,
  PAGE_ELEMENT_ID,
  type ChooseActionInput,
  type ChosenAction,
  type ExtractInput,
  type Inference,
  type ObserveInput,
  type VariableInfo,
} from './types.js';
