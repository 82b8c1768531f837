// Reads the third-party GraphQL schema's shape out of @linear/sdk's published
// type declarations (graphql-codegen output). How codegen writes each kind:
//   object     type X = Node & { __typename?: "X"; field: T; ... }
//   interface  type Node = { id: Scalars["ID"] }   (intersected into objects)
//   input      type XInput = { field?: InputMaybe<T> }   (reached from arguments)
//   union      type X = A | B
//   enum       declare enum X { A = "a" }
//   scalar     a key of `type Scalars`
//   arguments  type XFieldArgs = { ... } for field `field` of type X (case aside)
// Nullability: Maybe<T>/InputMaybe<T> is nullable; anything else non-null. An
// optional property that is not Maybe (an argument with a default value) is
// read as nullable, which accepts every document the original accepts.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import ts from 'typescript';

import type { FieldEntry, ThirdPartySchema } from '../src/graphql/schema/third-party.js';

const BUILT_IN = new Set(['ID', 'String', 'Boolean', 'Int', 'Float']);
// Codegen pascal-cases the names of non-object types, so an acronym in a name
// comes out lower-cased (IDComparator becomes IdComparator). Object names
// survive in their __typename literals; these are the others whose true name
// differs, checked against documents written for the third-party API.
const TRUE_NAMES: Record<string, string> = {
  IdComparator: 'IDComparator',
  IssueIdComparator: 'IssueIDComparator',
  EntityIdentifierIdComparator: 'EntityIdentifierIDComparator',
  SlaDayCountType: 'SLADayCountType',
};
const trueName = (n: string) => TRUE_NAMES[n] ?? n;

function declarationsFile(root: string): string {
  const require = createRequire(path.join(root, 'package.json'));
  const dist = path.dirname(require.resolve('@linear/sdk'));
  const file = fs.readdirSync(dist).find((f) => /^index-.*\.d\.mts$/.test(f));
  if (!file) throw new Error(`no index-*.d.mts in ${dist}`);
  return path.join(dist, file);
}

const isDeprecated = (node: ts.Node) => ts.getJSDocTags(node).some((t) => t.tagName.text === 'deprecated');
const refName = (node: ts.TypeNode) =>
  ts.isTypeReferenceNode(node) && ts.isIdentifier(node.typeName) ? node.typeName.text : undefined;

export function readThirdPartySchema(root: string): ThirdPartySchema {
  const file = declarationsFile(root);
  const source = ts.createSourceFile(file, fs.readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const aliases = new Map<string, ts.TypeNode>();
  const enumDecls = new Map<string, ts.EnumDeclaration>();
  for (const st of source.statements) {
    if (ts.isTypeAliasDeclaration(st)) aliases.set(st.name.text, st.type);
    if (ts.isEnumDeclaration(st)) enumDecls.set(st.name.text, st);
  }
  // Argument types are named `${Type}${Field}Args`, pascal-cased like every name
  // (attachmentLinkURL's are MutationAttachmentLinkUrlArgs): found case-blind.
  const argsAliases = new Map(
    [...aliases.keys()].filter((n) => n.endsWith('Args')).map((n) => [n.toLowerCase(), n]),
  );
  const scalarsNode = aliases.get('Scalars');
  if (!scalarsNode || !ts.isTypeLiteralNode(scalarsNode)) throw new Error('no Scalars type');
  const scalarNames = new Set(scalarsNode.members.map((m) => (m.name as ts.Identifier).text));

  /** The type literal and intersected names of an alias (`A & B & { ... }`). */
  const shape = (name: string) => {
    const node = aliases.get(name);
    if (!node) return undefined;
    const parts: readonly ts.TypeNode[] = ts.isIntersectionTypeNode(node) ? node.types : [node];
    const literal = parts.find((p): p is ts.TypeLiteralNode => ts.isTypeLiteralNode(p));
    if (!literal) return undefined;
    const bases = parts.map(refName).filter((n): n is string => Boolean(n));
    return { literal, bases };
  };
  const typename = (literal: ts.TypeLiteralNode) => {
    for (const m of literal.members) {
      if (!ts.isPropertySignature(m) || (m.name as ts.Identifier).text !== '__typename' || !m.questionToken)
        continue;
      const t = m.type;
      if (t && ts.isLiteralTypeNode(t) && ts.isStringLiteral(t.literal)) return t.literal.text;
    }
    return undefined;
  };

  const pending: { name: string; input: boolean }[] = [];
  /** GraphQL type string of a property's type; queues the named type it reaches. */
  const typeString = (node: ts.TypeNode, optional: boolean, input: boolean): string => {
    const inner = (n: ts.TypeNode): { s: string; nullable: boolean } => {
      const r = refName(n);
      if ((r === 'Maybe' || r === 'InputMaybe') && ts.isTypeReferenceNode(n) && n.typeArguments) {
        return { s: inner(n.typeArguments[0] as ts.TypeNode).s, nullable: true };
      }
      if (r === 'Array' && ts.isTypeReferenceNode(n) && n.typeArguments) {
        const item = inner(n.typeArguments[0] as ts.TypeNode);
        return { s: `[${item.s}${item.nullable ? '' : '!'}]`, nullable: false };
      }
      if (ts.isIndexedAccessTypeNode(n) && ts.isLiteralTypeNode(n.indexType)) {
        const lit = n.indexType.literal;
        if (ts.isStringLiteral(lit)) {
          if (!BUILT_IN.has(lit.text)) pending.push({ name: lit.text, input });
          return { s: trueName(lit.text), nullable: false };
        }
      }
      if (r) {
        pending.push({ name: r, input });
        return { s: trueName(r), nullable: false };
      }
      throw new Error(`unreadable type at ${n.getText()}`);
    };
    const t = inner(node);
    return t.nullable || optional ? t.s : `${t.s}!`;
  };
  const fieldsOf = (literal: ts.TypeLiteralNode, input: boolean) => {
    const fields: [string, string, boolean][] = [];
    for (const m of literal.members) {
      if (!ts.isPropertySignature(m) || !m.type) continue;
      const name = (m.name as ts.Identifier).text;
      if (name === '__typename') continue;
      fields.push([name, typeString(m.type, Boolean(m.questionToken), input), isDeprecated(m)]);
    }
    return fields;
  };
  const outputFields = (typeName: string, literal: ts.TypeLiteralNode) => {
    const out: Record<string, FieldEntry> = {};
    for (const [name, type, deprecated] of fieldsOf(literal, false)) {
      const argsName = argsAliases.get(`${typeName}${name}Args`.toLowerCase());
      const argsShape = argsName ? shape(argsName) : undefined;
      const args = argsShape
        ? Object.fromEntries(fieldsOf(argsShape.literal, true).map(([a, t]) => [a, t]))
        : {};
      const hasArgs = Object.keys(args).length > 0;
      out[name] =
        hasArgs || deprecated
          ? { type, ...(hasArgs ? { args } : {}), ...(deprecated ? { deprecated: true as const } : {}) }
          : type;
    }
    return out;
  };

  const schema: ThirdPartySchema = {
    scalars: [],
    enums: {},
    objects: {},
    interfaces: {},
    inputs: {},
    unions: {},
  };
  for (const name of aliases.keys()) {
    const s = shape(name);
    if (s && typename(s.literal) === name) pending.push({ name, input: false });
  }
  const seen = new Set<string>();
  while (pending.length) {
    const { name, input } = pending.pop() as { name: string; input: boolean };
    if (seen.has(name)) continue;
    seen.add(name);
    if (scalarNames.has(name)) {
      schema.scalars.push(name);
      continue;
    }
    const en = enumDecls.get(name);
    if (en) {
      schema.enums[name] = en.members.map((m) => {
        const init = m.initializer;
        return init && ts.isStringLiteral(init) ? init.text : (m.name as ts.Identifier).text;
      });
      continue;
    }
    const node = aliases.get(name);
    if (node && ts.isUnionTypeNode(node)) {
      const members = node.types.map(refName).filter((n): n is string => Boolean(n));
      schema.unions[name] = members.map(trueName);
      for (const m of members) pending.push({ name: m, input: false });
      continue;
    }
    const s = shape(name);
    if (!s) throw new Error(`unknown type ${name}`);
    for (const b of s.bases) pending.push({ name: b, input: false });
    const impl = s.bases.length ? { implements: s.bases.map(trueName) } : {};
    if (typename(s.literal) === name)
      schema.objects[name] = { ...impl, fields: outputFields(name, s.literal) };
    else if (input)
      schema.inputs[name] = Object.fromEntries(fieldsOf(s.literal, true).map(([f, t]) => [f, t]));
    else schema.interfaces[name] = { ...impl, fields: outputFields(name, s.literal) };
  }
  const sorted = <T>(o: Record<string, T>) =>
    Object.fromEntries(
      Object.entries(o)
        .map(([k, v]) => [trueName(k), v] as const)
        .sort(([a], [b]) => (a < b ? -1 : 1)),
    );
  return {
    scalars: schema.scalars.sort(),
    enums: sorted(schema.enums),
    objects: sorted(schema.objects),
    interfaces: sorted(schema.interfaces),
    inputs: sorted(schema.inputs),
    unions: sorted(schema.unions),
  };
}
