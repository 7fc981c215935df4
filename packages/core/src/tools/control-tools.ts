// Tools that touch nothing: think (the model writes its plan down) and done (the model says the task
// is finished, or cannot be, and why). A caller that runs a loop ends it when done is called.
import { z } from 'zod';
import { defineTool } from './tool.js';

export const thinkTool = defineTool({
  name: 'think',
  description: 'Write down your reasoning or plan; nothing on the page changes.',
  input: z.object({ thought: z.string().min(1) }),
  readOnly: true,
  capability: 'agent',
  handle: async ({ thought }) => ({ noted: thought.length > 0 }),
});

export const doneTool = defineTool({
  name: 'done',
  description: 'Finish: say whether the task was completed and summarise what was achieved, or why it could not be.',
  input: z.object({
    success: z.boolean().describe('True only when the whole task was carried out'),
    message: z.string().min(1).describe('What was achieved, or why not'),
  }),
  readOnly: true,
  capability: 'agent',
  handle: async (input) => input,
});
