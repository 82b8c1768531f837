// Request validation. Bodies are checked strictly: no type coercion and no
// silent removal of unknown fields (schemas say additionalProperties: false
// where unknown fields matter). Query strings and params arrive as text, so
// those are coerced ("50" -> 50) before the same schema checks.
import { Ajv, type ErrorObject, type Options } from 'ajv';
import addFormatsImport from 'ajv-formats';
import type { FastifySchemaCompiler } from 'fastify';
import { type FieldError, validationFailed } from '../errors.js';
import { isInstant, parseCalendarDate } from '../list/relative-time.js';
import { isOneLine, ONE_LINE_FORMAT, ONE_LINE_MESSAGE } from '../one-line.js';

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
  // Dates and times are held to what JavaScript and PostgreSQL both represent, as in filters.
  ajv.addFormat('date-time', { type: 'string', validate: isInstant });
  ajv.addFormat('date', { type: 'string', validate: (s) => parseCalendarDate(s) !== undefined });
  ajv.addFormat('hexcolor', /^#[0-9a-fA-F]{6}$/);
  ajv.addFormat(ONE_LINE_FORMAT, { type: 'string', validate: isOneLine });
  return ajv;
}

const strictAjv = makeAjv(false);
const coercingAjv = makeAjv('array');

export const validatorCompiler: FastifySchemaCompiler<unknown> = ({ schema, httpPart }) => {
  const ajv = httpPart === 'body' ? strictAjv : coercingAjv;
  return ajv.compile(schema as object) as ReturnType<FastifySchemaCompiler<unknown>>;
};

const FORMAT_WORDS: Record<string, string> = {
  email: 'email address',
  uri: 'URL',
  'date-time': 'date and time (ISO 8601)',
  date: 'date (YYYY-MM-DD)',
  uuid: 'id',
};
const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** What a person reads next to a field: Ajv's own messages are written for programmers. */
function plainWords(e: ErrorObject): string {
  const p = e.params as Record<string, unknown>;
  switch (e.keyword) {
    case 'minLength':
      return p['limit'] === 1
        ? 'must not be empty'
        : `must be at least ${plural(Number(p['limit']), 'character')}`;
    case 'maxLength':
      return `must be at most ${plural(Number(p['limit']), 'character')}`;
    case 'minItems':
      return `must have at least ${plural(Number(p['limit']), 'item')}`;
    case 'maxItems':
      return `must have at most ${plural(Number(p['limit']), 'item')}`;
    case 'minimum':
      return `must be at least ${p['limit']}`;
    case 'maximum':
      return `must be at most ${p['limit']}`;
    case 'exclusiveMinimum':
      return `must be more than ${p['limit']}`;
    case 'exclusiveMaximum':
      return `must be less than ${p['limit']}`;
    case 'type':
      return `must be ${p['type'] === 'integer' ? 'a whole number' : `a ${String(p['type']).replace(/,/g, ' or ')}`}`;
    case 'enum':
      return `must be one of ${(p['allowedValues'] as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`;
    case 'const':
      return `must be ${JSON.stringify(p['allowedValue'])}`;
    // A pattern is an implementation detail; `\S` is the one most fields use.
    case 'pattern':
      return p['pattern'] === '\\S' ? 'must not be blank' : 'is not in the expected form';
    default:
      return e.message ?? 'is invalid';
  }
}

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
      if ((e.params as { format: string }).format === ONE_LINE_FORMAT)
        return { field: base || '/', message: ONE_LINE_MESSAGE };
      return {
        field: base || '/',
        message: `must be a valid ${FORMAT_WORDS[(e.params as { format: string }).format] ?? (e.params as { format: string }).format}`,
      };
    default:
      return { field: base || '/', message: plainWords(e) };
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
