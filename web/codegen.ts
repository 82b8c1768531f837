// GraphQL code generation for the web UI: every document written with
// `graphql(...)` gets its result and variable types from the schema this
// service holds (printed by scripts/print-graphql-schema.ts). `npm run codegen`.
import type { CodegenConfig } from '@graphql-codegen/cli';

const config: CodegenConfig = {
  schema: 'web/src/gql/schema.graphql',
  documents: ['web/src/**/*.{ts,tsx}', '!web/src/gql/**'],
  ignoreNoDocuments: true,
  generates: {
    'web/src/gql/': {
      preset: 'client',
      presetConfig: { fragmentMasking: false },
      config: {
        // Documents stay plain strings: no GraphQL parser in the browser bundle.
        documentMode: 'string',
        enumsAsTypes: true,
        useTypeImports: true,
        avoidOptionals: { field: true, inputValue: false, object: false, defaultValue: false },
        scalars: {
          DateTime: 'string',
          DateTimeOrDuration: 'string',
          Duration: 'string',
          TimelessDate: 'string',
          TimelessDateOrDuration: 'string',
          JSON: 'unknown',
          JSONObject: 'Record<string, unknown>',
          JSONString: 'string',
          UUID: 'string',
        },
      },
    },
  },
};
export default config;
