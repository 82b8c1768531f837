// Prints the GraphQL schema as SDL (for `linear-sdk-compat.mjs --sdl`, diffing, tooling).
//   npx tsx scripts/print-graphql-sdl.ts > schema.graphql
import { printSchema } from 'graphql';
import { buildExecutableSchema } from '../src/graphql/build-schema.js';
import { allResolvers } from '../src/graphql/resolvers/index.js';

process.stdout.write(printSchema(buildExecutableSchema(allResolvers)));
