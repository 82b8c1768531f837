// Request validation. Bodies are checked strictly: no type coercion and no
// silent removal of unknown fields (schemas say additionalProperties: false
// where unknown fields matter). Query strings and params arrive as text, so
// those are coerced ("50" -> 50) before the same schema checks.
import { Ajv, type ErrorObject, type Options } from 'ajv';
import addFormatsImport from 'ajv-formats';
import type { FastifySchemaCompiler } from 'fastify';
import { type FieldError, validationFailed } from '../errors.js';

const addFormats = addFormatsImport as unknown as (ajv: Ajv) => Ajv;

function makeAjv(coerceTypes: Options['coerceTypes']): Ajv {
  const ajv = new Ajv({
    coerceTypes,
    useDefaults: true,
    removeAdditional: false,
    allErrors: true,
    strict: false,
  });
  addFormats(ajv);
  // `format: email` in ajv-formats accepts odd forms; ours is the practical one.
  ajv.addFormat('email', /^[^\s@"<>(),;:]+@[^\s@"<>(),;:]+\.[^\s@"<>(),;:.]+$/);
  ajv.addFormat('hexcolor', /^#[0-9a-fA-F]{6}$/);
  return ajv;
}

const strictAjv = makeAjv(false);
const coercingAjv = makeAjv('array');

export const validatorCompiler: FastifySchemaCompiler<unknown> = ({ schema, httpPart }) => {
  const ajv = httpPart === 'body' ? strictAjv : coercingAjv;
  return ajv.compile(schema as object) as ReturnType<FastifySchemaCompiler<unknown>>;
};

function describe(e: ErrorObject): FieldError {
  const base = e.instancePath || '';
  switch (e.keyword) {
    case 'required':
      return {
        field: `${base}/${(e.params as { missingProperty: string }).missingProperty}`,
        message: 'is required',
      };
    case 'additionalProperties':
      return {
        field: `${base}/${(e.params as { additionalProperty: string }).additionalProperty}`,
        message: 'is not a known field',
      };
    case 'format':
      return { field: base || '/', message: `must be a valid ${(e.params as { format: string }).format}` };
    default:
      return { field: base || '/', message: e.message ?? 'is invalid' };
  }
}

/** Turns Ajv's errors into our VALIDATION_FAILED error, one entry per field. */
export function fromAjvErrors(errors: ErrorObject[], part: string) {
  const seen = new Set<string>();
  const details: FieldError[] = [];
  // anyOf/oneOf branches produce noise; keep the first error per field.
  for (const e of errors) {
    if (e.keyword === 'anyOf' || e.keyword === 'oneOf') continue;
    const d = describe(e);
    if (seen.has(d.field)) continue;
    seen.add(d.field);
    details.push(d);
  }
  if (details.length === 0) details.push({ field: '/', message: 'is invalid' });
  const first = details[0]!;
  const where = part === 'body' ? '' : ` in ${part}`;
  return validationFailed(
    `Invalid input${where}: ${first.field.replace(/^\//, '') || part} ${first.message}`,
    details,
  );
}
