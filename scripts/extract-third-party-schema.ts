// Writes src/graphql/schema/third-party.json: the names and types of the
// third-party tracker's whole GraphQL schema, read from the TypeScript types
// that @linear/sdk publishes (generated there from that schema). Only facts
// are kept (type kinds, field and argument types, enum values, interfaces,
// union members, deprecation); no description text.
//   npx tsx scripts/extract-third-party-schema.ts
// Rerun after upgrading @linear/sdk; test/graphql-schema-model.test.ts checks
// that the committed file matches the installed SDK.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { readThirdPartySchema } from './third-party-schema-reader.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const out = path.join(root, 'src/graphql/schema/third-party.json');
const data = readThirdPartySchema(root);
fs.writeFileSync(out, `${JSON.stringify(data, null, 1)}\n`);
const count = (o: object) => Object.keys(o).length;
console.log(
  `wrote ${path.relative(root, out)}: ${count(data.objects)} objects, ${count(data.interfaces)} interfaces, ` +
    `${count(data.inputs)} inputs, ${count(data.enums)} enums, ${count(data.unions)} unions, ${data.scalars.length} scalars`,
);
