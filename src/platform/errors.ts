// The one error type services throw. REST renders it as
//   { "error": { "status", "code", "message", "details"? } }
// and GraphQL maps it onto the error classes @linear/sdk understands.
export interface FieldError {
  /** JSON-pointer-like path of the offending input, e.g. "/email" or "/labelIds/2". */
  field: string;
  message: string;
}

export type ErrorCode =
  | 'VALIDATION_FAILED'
  | 'BAD_REQUEST'
  | 'UNAUTHENTICATED'
  | 'INVALID_CREDENTIALS'
  | 'FORBIDDEN'
  | 'INSUFFICIENT_SCOPE'
  | 'REGISTRATION_DISABLED'
  | 'ACCOUNT_SUSPENDED'
  | 'SSO_REQUIRED'
  | 'SSO_NOT_COMPLETED'
  | 'REGISTRATION_CLOSED'
  | 'EMAIL_DOMAIN_NOT_ALLOWED'
  | 'FEATURE_DISABLED'
  | 'NOT_HELD'
  | 'NOT_FOUND'
  | 'CONFLICT'
  | 'LAST_ADMIN'
  | 'PAYLOAD_TOO_LARGE'
  | 'UNSUPPORTED_MEDIA_TYPE'
  | 'RATE_LIMITED'
  | 'QUERY_TOO_COMPLEX'
  | 'QUERY_TOO_EXPENSIVE'
  | 'INVALID_RESET_TOKEN'
  | 'INVALID_UNSUBSCRIBE_TOKEN'
  | 'PASSWORD_RESET_UNAVAILABLE'
  | 'INTERNAL';

export class AppError extends Error {
  override name = 'AppError';
  constructor(
    readonly status: number,
    readonly code: ErrorCode,
    message: string,
    readonly details?: FieldError[],
    /** Seconds, for 429 responses. */
    readonly retryAfter?: number,
  ) {
    super(message);
  }

  toJSON() {
    return {
      error: {
        status: this.status,
        code: this.code,
        message: this.message,
        ...(this.details ? { details: this.details } : {}),
      },
    };
  }
}

/**
 * An error raised by SCIM provisioning (modules/scim) with SCIM's `scimType`;
 * under /scim/v2 every error is rendered in SCIM's shape (http/error-handler.ts).
 */
export class ScimError extends AppError {
  constructor(
    status: number,
    readonly scimType: string | undefined,
    message: string,
  ) {
    super(
      status,
      status === 404
        ? 'NOT_FOUND'
        : status === 409
          ? 'CONFLICT'
          : status === 401
            ? 'UNAUTHENTICATED'
            : 'BAD_REQUEST',
      message,
    );
  }
}

export const validationFailed = (message: string, details: FieldError[]) =>
  new AppError(400, 'VALIDATION_FAILED', message, details);
/** A single bad input field, named so the caller can show it next to the field. */
export const invalidField = (field: string, message: string) =>
  new AppError(400, 'VALIDATION_FAILED', `${field}: ${message}`, [{ field: `/${field}`, message }]);
export const badRequest = (message: string) => new AppError(400, 'BAD_REQUEST', message);
export const unauthenticated = (message = 'Authentication required') =>
  new AppError(401, 'UNAUTHENTICATED', message);
export const forbidden = (message = 'You do not have permission to do this') =>
  new AppError(403, 'FORBIDDEN', message);
export const featureDisabled = (feature: string) =>
  new AppError(403, 'FEATURE_DISABLED', `The ${feature} feature is disabled in this workspace`);
export const notFound = (what: string) => new AppError(404, 'NOT_FOUND', `${what} not found`);
/** A unique value already taken; naming the field lets a form show it there. */
export const conflict = (message: string, field?: string) =>
  new AppError(409, 'CONFLICT', message, field ? [{ field: `/${field}`, message }] : undefined);
export const rateLimited = (message: string, retryAfter: number) =>
  new AppError(429, 'RATE_LIMITED', message, undefined, retryAfter);
/** A value the database refused (see isDataException): the client's error, without detail. */
export const valueNotAcceptable = () =>
  new AppError(400, 'BAD_REQUEST', 'A value in the request is not acceptable');
