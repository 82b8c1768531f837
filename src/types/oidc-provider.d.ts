// oidc-provider 8 ships no types; these are the parts Trackway (modules/oauth)
// and the single sign-on tests' provider (test/support/oidc-idp.ts) use.
declare module 'oidc-provider' {
  import type { IncomingMessage, ServerResponse } from 'node:http';
  export interface Account {
    accountId: string;
    claims(use: string, scope: string): Promise<Record<string, unknown>> | Record<string, unknown>;
  }
  export interface Configuration {
    clients?: Record<string, unknown>[];
    findAccount(ctx: unknown, id: string): Promise<Account | undefined>;
    claims?: Record<string, string[]>;
    scopes?: string[];
    conformIdTokenClaims?: boolean;
    features?: Record<string, unknown>;
    interactions?: { url(ctx: unknown, interaction: { uid: string }): string; policy?: unknown };
    cookies?: { keys: string[]; long?: Record<string, unknown>; short?: Record<string, unknown> };
    pkce?: { methods?: string[]; required(ctx: unknown, client: unknown): boolean };
    ttl?: Record<string, number>;
    adapter?: unknown;
    jwks?: { keys: unknown[] };
    routes?: Record<string, string>;
    clientDefaults?: Record<string, unknown>;
    responseTypes?: string[];
    issueRefreshToken?: (ctx: unknown, client: { grantTypeAllowed(type: string): boolean }) => boolean;
    rotateRefreshToken?: boolean;
    expiresWithSession?: () => boolean;
    renderError?: (
      ctx: { type: string; body: string },
      out: Record<string, string>,
      error: Error,
    ) => void | Promise<void>;
    [option: string]: unknown;
  }
  export class Grant {
    constructor(init: { accountId: string; clientId: string });
    jti: string;
    accountId: string;
    clientId: string;
    addOIDCScope(scope: string): void;
    addOIDCClaims(claims: string[]): void;
    save(): Promise<string>;
    destroy(): Promise<void>;
    static find(id: string): Promise<Grant | undefined>;
  }
  export interface AccessToken {
    jti: string;
    accountId: string;
    clientId: string;
    grantId: string;
    scope?: string;
    /** What the configuration's extraTokenClaims answered when the token was issued. */
    extra?: Record<string, unknown>;
    isExpired: boolean;
  }
  export interface Client {
    clientId: string;
    clientName?: string;
    logoUri?: string;
    clientUri?: string;
    redirectUris: string[];
  }
  export interface Interaction {
    jti: string;
    uid: string;
    exp: number;
    returnTo: string;
    prompt: { name: string; reasons: string[]; details: Record<string, unknown> };
    params: Record<string, unknown>;
    session?: { accountId?: string };
    result?: Record<string, unknown>;
    save(ttl: number): Promise<string>;
  }
  export class Check {
    constructor(
      reason: string,
      description: string,
      check: (ctx: { oidc: { result?: { login?: unknown } } }) => boolean | Promise<boolean>,
    );
    static REQUEST_PROMPT: true;
    static NO_NEED_TO_PROMPT: false;
  }
  export const errors: {
    InvalidRequest: new (description: string) => Error;
  };
  export const interactionPolicy: {
    Check: typeof Check;
    base(): Array<{ name: string; checks: { add(check: Check, at?: number): void } }> & {
      get(name: string): { name: string; checks: { add(check: Check, at?: number): void } } | undefined;
    };
  };
  export default class Provider {
    constructor(issuer: string, configuration: Configuration);
    proxy: boolean;
    Grant: typeof Grant;
    AccessToken: { find(token: string): Promise<AccessToken | undefined> };
    Client: {
      find(id: string): Promise<Client | undefined>;
      validate(metadata: Record<string, unknown>): Promise<void>;
    };
    Interaction: { find(uid: string): Promise<Interaction | undefined> };
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
