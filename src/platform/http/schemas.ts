// Schema pieces shared by every REST module.
import { Type } from 'typebox';
import { ONE_LINE_FORMAT } from '../one-line.js';

export const ErrorResponse = Type.Object(
  {
    error: Type.Object({
      status: Type.Integer(),
      code: Type.String({ description: 'Stable machine-readable code, e.g. VALIDATION_FAILED' }),
      message: Type.String(),
      details: Type.Optional(
        Type.Array(Type.Object({ field: Type.String(), message: Type.String() }), {
          description: 'Per-field problems, for validation failures',
        }),
      ),
    }),
  },
  { $id: 'Error', description: 'Every failure has this shape' },
);

export const Uuid = Type.String({ format: 'uuid' });
export const IdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 200 }) });
export const Ok = Type.Object({ ok: Type.Literal(true) });
export const Timestamp = Type.String({ format: 'date-time' });

/**
 * A title or name: one line (no line breaks or control characters,
 * platform/one-line.ts), and not blank unless `allowBlank`.
 */
export const OneLineText = (maxLength: number, options: { allowBlank?: boolean } = {}) =>
  Type.String({
    format: ONE_LINE_FORMAT,
    maxLength,
    ...(options.allowBlank ? {} : { minLength: 1, pattern: '\\S' }),
  });

/** Standard error responses to attach to a route's `response` schema. */
export const errors = (...codes: number[]) =>
  Object.fromEntries(codes.map((c) => [c, Type.Ref('Error')])) as Record<number, ReturnType<typeof Type.Ref>>;
