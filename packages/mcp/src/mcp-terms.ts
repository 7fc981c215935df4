// The core's messages name the HTTP API's settings (`options.model`, the x-model-api-key header),
// which an MCP user cannot set: in a tool result they are said in MCP's own terms instead.
const MODEL_SETTING = 'the modelName query parameter of /mcp (--modelName for deckhand-mcp)';
const KEY_SETTING = 'the modelApiKey query parameter of /mcp (--modelApiKey for deckhand-mcp)';

export function inMcpTerms(message: string): string {
  return message
    .replace(/pass options\.model\.apiKey(?:, | or )the x-model-api-key header/g, `set ${KEY_SETTING}`)
    .replace(/options\.model\.apiKey/g, KEY_SETTING)
    .replace(/a model in options\.model/g, `a model with ${MODEL_SETTING}`)
    .replace(/options\.model/g, MODEL_SETTING);
}
