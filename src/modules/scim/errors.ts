// SCIM's error answers (RFC 7644 §3.12) are rendered by the platform's error
// handler for every failure under /scim/v2 (platform/http/error-handler.ts);
// services throw ScimError when a scimType tells the client more.
import { ScimError } from '../../platform/errors.js';

export type ScimType =
  | 'invalidFilter'
  | 'tooMany'
  | 'uniqueness'
  | 'mutability'
  | 'invalidSyntax'
  | 'invalidPath'
  | 'noTarget'
  | 'invalidValue'
  | 'invalidVers'
  | 'sensitive';

export const scimError = (status: number, scimType: ScimType | undefined, detail: string) =>
  new ScimError(status, scimType, detail);
