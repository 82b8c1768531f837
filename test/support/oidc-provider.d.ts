// oidc-provider ships no types; the tests use only these parts.
declare module 'oidc-provider' {
  import type { IncomingMessage, ServerResponse } from 'node:http';
  export interface Account {
    accountId: string;
    claims(use: string, scope: string): Promise<Record<string, unknown>> | Record<string, unknown>;
  }
  export interface Configuration {
    clients: Record<string, unknown>[];
    findAccount(ctx: unknown, id: string): Promise<Account | undefined>;
    claims?: Record<string, string[]>;
    scopes?: string[];
    conformIdTokenClaims?: boolean;
    features?: Record<string, unknown>;
    interactions?: { url(ctx: unknown, interaction: { uid: string }): string };
    cookies?: { keys: string[] };
    pkce?: { required(ctx: unknown, client: unknown): boolean };
    ttl?: Record<string, number>;
    adapter?: unknown;
    jwks?: { keys: unknown[] };
  }
  class Grant {
    constructor(init: { accountId: string; clientId: string });
    addOIDCScope(scope: string): void;
    addOIDCClaims(claims: string[]): void;
    save(): Promise<string>;
  }
  export default class Provider {
    constructor(issuer: string, configuration: Configuration);
    Grant: typeof Grant;
    callback(): (req: IncomingMessage, res: ServerResponse) => void;
    interactionDetails(
      req: IncomingMessage,
      res: ServerResponse,
    ): Promise<{ uid: string; prompt: { name: string }; params: Record<string, unknown> }>;
    interactionFinished(
      req: IncomingMessage,
      res: ServerResponse,
      result: Record<string, unknown>,
      options?: { mergeWithLastSubmission?: boolean },
    ): Promise<void>;
    on(event: string, listener: (...args: unknown[]) => void): void;
  }
}
