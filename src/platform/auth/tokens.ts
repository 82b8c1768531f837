// Login tokens: JWT HS256, 7 days. `ep` is the user's session epoch: a password
// change bumps it, which retires every token issued before. `sid` names the
// sign-in session (modules/sessions), which can be ended on its own; a token
// issued before sessions existed has none and lives by its epoch alone.
import { jwtVerify, SignJWT } from 'jose';
import { isUuid } from '../ids.js';

export const TOKEN_LIFETIME_SECONDS = 7 * 24 * 3600;

export interface TokenClaims {
  userId: string;
  epoch: number;
  sessionId?: string | undefined;
}

export class TokenSigner {
  readonly #key: Uint8Array;

  constructor(secret: string) {
    this.#key = new TextEncoder().encode(secret);
  }

  sign(claims: TokenClaims): Promise<string> {
    return new SignJWT({ ep: claims.epoch, ...(claims.sessionId ? { sid: claims.sessionId } : {}) })
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
      // We only issue tokens with all of these; one without them (signed with
      // a leaked or test secret, or by an old build) is refused, never guessed
      // at: no `exp` would live for ever, and a `sub` that is not a uuid must
      // not reach SQL. `maxTokenAge` also refuses an `iat` in the future.
      const { payload } = await jwtVerify(token, this.#key, {
        algorithms: ['HS256'],
        requiredClaims: ['exp', 'iat', 'sub'],
        maxTokenAge: TOKEN_LIFETIME_SECONDS,
      });
      const epoch = payload['ep'];
      const sid = payload['sid'];
      if (!isUuid(payload.sub) || !Number.isSafeInteger(epoch) || (epoch as number) < 0) {
        return undefined;
      }
      if (sid !== undefined && !isUuid(sid)) return undefined;
      const claims = {
        userId: payload.sub as string,
        epoch: epoch as number,
        ...(sid === undefined ? {} : { sessionId: sid as string }),
      };
      // Remembered no longer than either limit allows.
      this.#remember(token, claims, Math.min(payload.exp!, payload.iat! + TOKEN_LIFETIME_SECONDS) * 1000);
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
