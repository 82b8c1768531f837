// Route schemas are compiled on a route's first request, not when the app
// starts. Compiling every route's validators (Ajv) and response serializers
// (fast-json-stringify) up front was most of an app's start-up CPU, about a
// second, paid again by every test file that builds an app; a request reaches
// only the routes it uses. The functions compiled are Fastify's and ours,
// unchanged; only the moment moves. Every route's schemas still compile in
// the tests, which call every route (test/fuzz-rest.test.ts).
import { type SerializerFactory, SerializerSelector } from '@fastify/fast-json-stringify-compiler';
import type { FastifySchemaCompiler } from 'fastify';

type Validate = ((data: unknown, dataCxt?: unknown) => unknown) & { errors?: unknown; schemaEnv?: unknown };

/** Defers `compile` until the validator first runs; the result behaves as Ajv's own function. */
export function lazyValidatorCompiler(
  compile: FastifySchemaCompiler<unknown>,
): FastifySchemaCompiler<unknown> {
  return (route) => {
    let fn: Validate | undefined;
    const validate: Validate = (data, dataCxt) => {
      fn ??= compile(route) as unknown as Validate;
      const result = fn(data, dataCxt);
      validate.errors = fn.errors;
      return result;
    };
    // Fastify passes Ajv functions (those with `schemaEnv`) the parent object,
    // which Ajv needs to coerce or default a root value in place.
    validate.schemaEnv = true;
    return validate as ReturnType<FastifySchemaCompiler<unknown>>;
  };
}

/**
 * Fastify's default serializer factory (fast-json-stringify with the app's
 * shared schemas), each route's serializer built on its first response.
 */
export function lazySerializerFactory(): SerializerFactory {
  const build = SerializerSelector();
  return (externalSchemas, serializerOpts) => {
    const compile = build(externalSchemas, serializerOpts);
    return (route) => {
      let fn: ((data: unknown) => string) | undefined;
      return (data) => {
        fn ??= compile(route);
        return fn(data);
      };
    };
  };
}
