// Maps our AppError onto the error shape @linear/sdk classifies: it reads
// extensions.type (one of a fixed list of strings), shows
// extensions.userPresentableMessage, and marks the user's fault with userError.
import { GraphQLError, type GraphQLFormattedError } from 'graphql';
import { isDataException } from '../platform/db/errors.js';
import { AppError, valueNotAcceptable } from '../platform/errors.js';

export type LinearErrorType =
  | 'authentication error'
  | 'forbidden'
  | 'feature not accessible'
  | 'invalid input'
  | 'ratelimited'
  | 'internal error';

export function errorTypeOf(err: AppError): LinearErrorType {
  if (err.status === 401) return 'authentication error';
  if (err.code === 'FEATURE_DISABLED' || err.code === 'NOT_HELD') return 'feature not accessible';
  if (err.status === 403) return 'forbidden';
  if (err.status === 429) return 'ratelimited';
  if (err.status >= 400 && err.status < 500) return 'invalid input';
  return 'internal error';
}

export interface GraphqlErrorBody extends GraphQLFormattedError {
  extensions: {
    type: LinearErrorType;
    code: string;
    statusCode: number;
    userError: boolean;
    userPresentableMessage: string;
    details?: { field: string; message: string }[];
  };
}

/** The `errors[]` entry for an AppError, with the path it happened at. */
export function formatAppError(err: AppError, path?: readonly (string | number)[]): GraphqlErrorBody {
  const type = errorTypeOf(err);
  return {
    message: err.message,
    ...(path ? { path } : {}),
    extensions: {
      type,
      code: err.code,
      statusCode: err.status,
      userError: type !== 'internal error',
      userPresentableMessage: err.message,
      ...(err.details ? { details: err.details } : {}),
    },
  };
}

const INTERNAL = new AppError(500, 'INTERNAL', 'Something went wrong on our side; it has been logged');

/**
 * Formats one error from graphql-js execution or validation. Resolver errors
 * that are not AppErrors are logged by the caller and answered without detail.
 */
export function formatError(error: GraphQLError, logUnexpected: (err: unknown) => void): GraphqlErrorBody {
  const original = error.originalError;
  if (original instanceof AppError) return formatAppError(original, error.path);
  // As on REST: a value the database refused is the client's error, logged
  // because a check should have caught it first.
  if (isDataException(original)) {
    logUnexpected(original);
    return formatAppError(valueNotAcceptable(), error.path);
  }
  if (original && !(original instanceof GraphQLError)) {
    logUnexpected(original);
    return formatAppError(INTERNAL, error.path);
  }
  // Parse, validation and variable-coercion errors: the query itself is wrong.
  const bad = new AppError(400, 'BAD_REQUEST', error.message);
  const body = formatAppError(bad, error.path);
  return error.locations ? { ...body, locations: error.locations } : body;
}
