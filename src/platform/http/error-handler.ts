// Every failure leaves as the same JSON shape (see errors.ts). Anything we did
// not anticipate is logged with its stack and answered as a 500 without detail.
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isDataException } from '../db/errors.js';
import { AppError, ScimError, valueNotAcceptable } from '../errors.js';
import { fromAjvErrors } from './validation.js';

function fromFastify(err: FastifyError): AppError | undefined {
  if (err.validation) return fromAjvErrors(err.validation as never, err.validationContext ?? 'body');
  const status = err.statusCode ?? 500;
  if (status < 400 || status >= 500) return undefined;
  if (status === 413) return new AppError(413, 'PAYLOAD_TOO_LARGE', 'Request body is too large');
  if (status === 415) return new AppError(415, 'UNSUPPORTED_MEDIA_TYPE', err.message);
  if (status === 429) return new AppError(429, 'RATE_LIMITED', err.message);
  if (err.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || err instanceof SyntaxError) {
    return new AppError(400, 'BAD_REQUEST', 'Request body is not valid JSON');
  }
  return new AppError(status, 'BAD_REQUEST', err.message);
}

// PostgreSQL class 22 ("data exception": malformed uuid, NUL byte in text,
// number out of range) always comes from a value the client sent that a route
// schema let through; it is the client's error, not ours.
function fromDatabase(err: unknown): AppError | undefined {
  return isDataException(err) ? valueNotAcceptable() : undefined;
}

/**
 * Errors the router raises before any route or hook runs (a URL that is not
 * valid percent-encoding, a path parameter over the router's length limit):
 * Fastify answers those with its own body unless given this.
 */
export function frameworkErrors(err: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  const status = err.statusCode && err.statusCode >= 400 && err.statusCode < 500 ? err.statusCode : 400;
  const message = err.code === 'FST_ERR_MAX_PARAM_LENGTH' ? 'A path segment is too long' : 'Malformed URL';
  send(request, reply, new AppError(status, 'BAD_REQUEST', message));
}

/** SCIM clients (modules/scim) read errors in SCIM's shape, so everything under this prefix answers in it. */
const SCIM_PREFIX = '/scim/v2';
const isScim = (request: FastifyRequest) =>
  request.url === SCIM_PREFIX ||
  request.url.startsWith(`${SCIM_PREFIX}/`) ||
  request.url.startsWith(`${SCIM_PREFIX}?`);

/** RFC 7644 §3.12: the status as a string, a detail, and scimType when it tells the client more. */
function scimBody(err: AppError) {
  const scimType =
    err instanceof ScimError
      ? err.scimType
      : err.status === 409
        ? 'uniqueness'
        : err.code === 'VALIDATION_FAILED' || err.message.includes('JSON')
          ? 'invalidSyntax'
          : undefined;
  return {
    schemas: ['urn:ietf:params:scim:api:messages:2.0:Error'],
    status: String(err.status),
    ...(scimType ? { scimType } : {}),
    detail: err.message,
  };
}

function send(request: FastifyRequest, reply: FastifyReply, err: AppError) {
  if (err.retryAfter) reply.header('retry-after', String(err.retryAfter));
  if (isScim(request)) {
    return reply
      .status(err.status)
      .type('application/scim+json; charset=utf-8')
      .send(JSON.stringify(scimBody(err)));
  }
  return reply.status(err.status).send(err.toJSON());
}

export function installErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((err: FastifyError, request, reply) => {
    const dbError = err instanceof AppError ? undefined : fromDatabase(err);
    if (dbError) request.log.warn({ err }, 'database refused a request value');
    const appError = err instanceof AppError ? err : (dbError ?? fromFastify(err));
    if (!appError) {
      request.log.error({ err }, 'unhandled error');
      return send(
        request,
        reply,
        new AppError(500, 'INTERNAL', 'Something went wrong on our side; it has been logged'),
      );
    }
    return send(request, reply, appError);
  });

  app.setNotFoundHandler((request, reply) => {
    send(
      request,
      reply,
      new AppError(404, 'NOT_FOUND', `No route for ${request.method} ${request.url.split('?')[0]}`),
    );
  });
}
