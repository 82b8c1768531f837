// Login tokens: JWT HS256, 7 days. `ep` is the user's session epoch: a password
// change bumps it, which retires every token issued before.
import { jwtVerify, SignJWT } from 'jose';

export const TOKEN_LIFETIME_SECONDS = 7 * 24 * 3600;

export interface TokenClaims {
  userId: string;
  epoch: number;
}

export class TokenSigner {
  readonly #key: Uint8Array;

  constructor(secret: string) {
    this.#key = new TextEncoder().encode(secret);
  }

  sign(claims: TokenClaims): Promise<string> {
    return new SignJWT({ ep: claims.epoch })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(claims.userId)
      .setIssuedAt()
      .setExpirationTime(`${TOKEN_LIFETIME_SECONDS}s`)
      .sign(this.#key);
  }

  /** The claims of a valid, unexpired token, or undefined. */
  async verify(token: string): Promise<TokenClaims | undefined> {
    const known = this.#verified.get(token);
    if (known) {
      if (known.expiresAt > Date.now()) return known.claims;
      this.#verified.delete(token);
      return undefined;
    }
    try {
      const { payload } = await jwtVerify(token, this.#key, { algorithms: ['HS256'] });
      if (typeof payload.sub !== 'string' || typeof payload['ep'] !== 'number') return undefined;
      const claims = { userId: payload.sub, epoch: payload['ep'] };
      this.#remember(token, claims, (payload.exp ?? 0) * 1000);
      return claims;
    } catch {
      return undefined;
    }
  }

  // A client sends the same token with every request, and checking the
  // signature is a good part of a small request's cost, so tokens that
  // verified are kept (until they expire). Revocation does not depend on
  // this: the session epoch is checked against the user row on every request.
  readonly #verified = new Map<string, { claims: TokenClaims; expiresAt: number }>();

  #remember(token: string, claims: TokenClaims, expiresAt: number): void {
    if (this.#verified.size >= VERIFIED_CACHE_SIZE) {
      this.#verified.delete(this.#verified.keys().next().value as string);
    }
    this.#verified.set(token, { claims, expiresAt });
  }
}

const VERIFIED_CACHE_SIZE = 1_000;

/** JWTs have three dot-separated parts; API keys never contain a dot. */
export const looksLikeJwt = (credential: string) => credential.split('.').length === 3;
