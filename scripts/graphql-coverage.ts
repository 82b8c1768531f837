// The coverage document (docs/graphql-coverage.md): which operations, types
// and fields of the third-party schema this service holds, from the held
// model itself. Regenerate with `npx tsx scripts/write-graphql-coverage.ts`;
// test/graphql-schema-model.test.ts fails when the committed copy is stale.
import { type GraphQLSchema, isObjectType } from 'graphql';
import { buildExecutableSchema } from '../src/graphql/build-schema.js';
import { allResolvers } from '../src/graphql/resolvers/index.js';
import { heldOf } from '../src/graphql/schema/build.js';

const list = (names: string[]) => (names.length ? names.map((n) => `\`${n}\``).join(', ') : '(none)');

export function coverageDocument(schema: GraphQLSchema = buildExecutableSchema(allResolvers)): string {
  const isHeld = heldOf(schema);
  const objects = Object.values(schema.getTypeMap())
    .filter(isObjectType)
    .filter((t) => !t.name.startsWith('__'))
    .sort((a, b) => a.name.localeCompare(b.name));
  const split = (name: string, fields: string[]) => ({
    held: fields.filter((f) => isHeld(name, f)),
    unheld: fields.filter((f) => !isHeld(name, f)),
  });
  const root = (name: 'Query' | 'Mutation') =>
    split(name, Object.keys(objects.find((o) => o.name === name)?.getFields() ?? {}).sort());
  const query = root('Query');
  const mutation = root('Mutation');
  const records = objects.filter((t) => t.name !== 'Query' && t.name !== 'Mutation');
  const heldTypes = records.filter((t) => Object.keys(t.getFields()).some((f) => isHeld(t.name, f)));
  const unheldTypes = records.filter((t) => !heldTypes.includes(t));
  let fields = 0;
  let held = 0;
  for (const t of records) {
    for (const f of Object.keys(t.getFields())) {
      fields++;
      if (isHeld(t.name, f)) held++;
    }
  }
  const out = [
    '# GraphQL coverage',
    '',
    "Generated from the schema's held model (`src/graphql/schema/held.ts`) by",
    '`npx tsx scripts/write-graphql-coverage.ts`; a test fails when this file is out of date.',
    'Every type, field and argument of the third-party schema exists here, so any document valid',
    'there validates here. What is not held answers by one rule (see graphql.md, "What is not held"):',
    'fields answer their empty value, Query fields answer empty or "feature not accessible",',
    'mutations answer "feature not accessible", and filters on an unheld field are invalid input.',
    '',
    `- Queries held: ${query.held.length} of ${query.held.length + query.unheld.length}`,
    `- Mutations held: ${mutation.held.length} of ${mutation.held.length + mutation.unheld.length}`,
    `- Object types with held fields: ${heldTypes.length} of ${records.length}`,
    `- Fields held on object types: ${held} of ${fields}`,
    '',
    '## Queries',
    '',
    `Held: ${list(query.held)}.`,
    '',
    `Not held: ${list(query.unheld)}.`,
    '',
    '## Mutations',
    '',
    `Held: ${list(mutation.held)}.`,
    '',
    `Not held: ${list(mutation.unheld)}.`,
    '',
    '## Types with held fields',
    '',
  ];
  for (const t of heldTypes) {
    const s = split(t.name, Object.keys(t.getFields()).sort());
    out.push(`### ${t.name}`, '', `Held: ${list(s.held)}.`, '');
    if (s.unheld.length) out.push(`Not held: ${list(s.unheld)}.`, '');
  }
  out.push('## Types not held', '', `${list(unheldTypes.map((t) => t.name))}.`, '');
  return out.join('\n');
}
