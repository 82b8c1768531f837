// The third-party schema's shape (names, kinds, field and argument types), as
// data: third-party.json, extracted from @linear/sdk's published types by
// scripts/extract-third-party-schema.ts. Read at startup, not compiled in, so
// the type checker does not infer a type for half a megabyte of JSON.
import fs from 'node:fs';

export type FieldEntry = string | { type: string; args?: Record<string, string>; deprecated?: true };
export interface OutputType {
  implements?: string[];
  fields: Record<string, FieldEntry>;
}
export interface ThirdPartySchema {
  scalars: string[];
  enums: Record<string, string[]>;
  objects: Record<string, OutputType>;
  interfaces: Record<string, OutputType>;
  inputs: Record<string, Record<string, string>>;
  unions: Record<string, string[]>;
}

let cached: ThirdPartySchema | undefined;
export function thirdPartySchema(): ThirdPartySchema {
  cached ??= JSON.parse(
    fs.readFileSync(new URL('./third-party.json', import.meta.url), 'utf8'),
  ) as ThirdPartySchema;
  return cached;
}

export const fieldType = (e: FieldEntry) => (typeof e === 'string' ? e : e.type);
export const fieldArgs = (e: FieldEntry) => (typeof e === 'string' ? {} : (e.args ?? {}));
/** The named type inside a type string: `[Issue!]!` -> `Issue`. */
export const namedType = (t: string) => t.replace(/[[\]!]/g, '');
