// hey-api: zod schemas and TypeScript types for packages/contract, from openapi.yaml.
import { defineConfig, type UserConfig } from '@hey-api/openapi-ts';

export const heyApiConfig: UserConfig = {
  input: 'openapi.yaml',
  output: { path: 'packages/contract/src/gen/hey-api', clean: true },
  plugins: [
    '@hey-api/typescript',
    {
      name: 'zod',
      requests: true,
      responses: true,
      '~resolvers': {
        // The zod plugin drops `additionalProperties: false`; closed objects must reject unknown keys.
        object(ctx) {
          const extra = ctx.schema.additionalProperties;
          if (!extra || extra.type !== 'never') return undefined;
          return ctx.$(ctx.symbols.z).attr('strictObject').call(ctx.nodes.shape(ctx));
        },
      },
    },
  ],
};

export default defineConfig(heyApiConfig);
