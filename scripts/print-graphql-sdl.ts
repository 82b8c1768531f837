// Prints the GraphQL schema as SDL (for `linear-sdk-compat.mjs --sdl`, diffing, tooling).
//   npx tsx scripts/print-graphql-sdl.ts > schema.graphql
import { buildSchema, printSchema } from 'graphql';
import { schemaSdl } from '../src/graphql/schema/index.js';

process.stdout.write(printSchema(buildSchema(schemaSdl)));
