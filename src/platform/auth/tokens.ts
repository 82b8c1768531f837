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
    try {
      const { payload } = await jwtVerify(token, this.#key, { algorithms: ['HS256'] });
      if (typeof payload.sub !== 'string' || typeof payload['ep'] !== 'number') return undefined;
      return { userId: payload.sub, epoch: payload['ep'] };
    } catch {
      return undefined;
    }
  }
}

/** JWTs have three dot-separated parts; API keys never contain a dot. */
export const looksLikeJwt = (credential: string) => credential.split('.').length === 3;
