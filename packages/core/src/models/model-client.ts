// One configured model, ready to answer structured questions: resolution, credentials and the SDK
// provider are settled once, when an operation starts, so a missing key fails before any work.
import { resolveCredentials, type KeySources } from './keys.js';
import { createProviderModel } from './language-model.js';
import type { ModelCallSite } from './model-error.js';
import { modelIdentity, type ModelTarget } from './resolve-model.js';
import { generateStructured, type ModelLog, type StructuredRequest } from './structured.js';

export interface ModelClient {
  readonly target: ModelTarget;
  /** provider/model (+ endpoint): what the cache keys on; never contains a credential. */
  readonly identity: string;
  generateObject(request: StructuredRequest): Promise<unknown>;
}

export function createModelClient(target: ModelTarget, sources: KeySources & { log?: ModelLog }): ModelClient {
  const credentials = resolveCredentials(target, sources);
  const provider = createProviderModel(target, credentials, sources.env);
  const site: ModelCallSite = { provider: target.providerName, modelId: target.modelId, secrets: provider.secrets };
  return {
    target,
    identity: modelIdentity(target),
    generateObject: (request) => generateStructured(provider, site, request, sources.log),
  };
}
