// Writes docs/graphql-coverage.md from the schema's held model.
//   npx tsx scripts/write-graphql-coverage.ts
import fs from 'node:fs';
import { coverageDocument } from './graphql-coverage.js';

fs.writeFileSync(new URL('../docs/graphql-coverage.md', import.meta.url), coverageDocument());
