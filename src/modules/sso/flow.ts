// The sign-in round trip: leave for the provider, come back with a code, hand
// the web app its session. What must survive the trip (state, nonce, PKCE
// verifier) rides in a sealed, HttpOnly cookie bound to this browser, so
// nothing is stored before the person has signed in and any instance can
// finish a trip another began. The session itself is handed over by a second
// sealed cookie that the web app trades for its token with one POST: a token
// never appears in a URL.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext, RequestOrigin } from '../../platform/context.js';
import { seal, unseal } from '../../platform/sealed.js';
import { recordAudit } from '../audit/record.js';
import { startSession } from '../sessions/service.js';
import { accountFor, type SsoRefusal, SsoRefused } from './accounts.js';
import { authorizationUrl, type FlowSecrets, ProviderUnavailable, redeemCode } from './provider.js';
import { type EffectiveSso, redirectUri } from './settings.js';

const COOKIE_PATH = '/api/auth/sso';
const FLOW_COOKIE = 'trackway_sso_flow';
const DONE_COOKIE = 'trackway_sso_done';
/** Time allowed at the provider (signing in, perhaps a second factor). */
const FLOW_TTL_S = 10 * 60;
/** Time from coming back to the web app taking the session. */
const DONE_TTL_S = 2 * 60;
const SEALING_PURPOSE = 'sso-cookie';

/** Only a path on this site: an absolute or protocol-relative address would send people elsewhere. */
export function safeReturnTo(raw: unknown): string {
  if (typeof raw !== 'string' || raw.length > 500 || !raw.startsWith('/') || /^\/[/\\]/.test(raw))
    return '/issues';
  return raw;
}

function setCookie(ctx: AppContext, reply: FastifyReply, name: string, payload: object, ttl: number) {
  const value = seal(
    ctx.deriveKey(SEALING_PURPOSE),
    JSON.stringify({ ...payload, exp: Date.now() + ttl * 1000 }),
  );
  reply.setCookie(name, value, {
    path: COOKIE_PATH,
    httpOnly: true,
    // Lax: sent on the provider's top-level redirect back to us, never on a cross-site POST.
    sameSite: 'lax',
    secure: ctx.config.publicUrl.startsWith('https:'),
    maxAge: ttl,
  });
}

function readCookie<T>(ctx: AppContext, req: FastifyRequest, name: string): T | null {
  const raw = req.cookies[name];
  const text = raw ? unseal(ctx.deriveKey(SEALING_PURPOSE), raw) : null;
  if (!text) return null;
  const value = JSON.parse(text) as T & { exp: number };
  return value.exp > Date.now() ? value : null;
}

const clearCookie = (reply: FastifyReply, name: string) => reply.clearCookie(name, { path: COOKIE_PATH });

const toLogin = (reply: FastifyReply, reason: SsoRefusal) =>
  reply.redirect(`/login?sso_error=${reason}`, 302);

/** GET /api/auth/sso/start: off to the provider, or back to sign-in when it cannot be reached. */
export async function startSignIn(
  ctx: AppContext,
  sso: EffectiveSso,
  req: FastifyRequest,
  reply: FastifyReply,
  returnTo: string,
) {
  try {
    const { url, secrets } = await authorizationUrl(sso.settings, redirectUri(ctx));
    setCookie(ctx, reply, FLOW_COOKIE, { ...secrets, returnTo }, FLOW_TTL_S);
    return reply.redirect(url.href, 302);
  } catch (err) {
    req.log.warn({ err }, 'single sign-on: the provider cannot be reached');
    return toLogin(reply, 'provider_unavailable');
  }
}

/** GET /api/auth/sso/callback: the provider's answer, checked, turned into a session for the web app. */
export async function finishSignIn(
  ctx: AppContext,
  sso: EffectiveSso,
  req: FastifyRequest & { query: { state?: string; error?: string } },
  reply: FastifyReply,
  origin: RequestOrigin,
) {
  const flow = readCookie<FlowSecrets & { returnTo: string }>(ctx, req, FLOW_COOKIE);
  clearCookie(reply, FLOW_COOKIE);
  // No trip of this browser's: a stale tab, a replay, or someone else's link. Nothing to record.
  if (!flow || typeof req.query.state !== 'string') return toLogin(reply, 'expired');
  const refuse = async (reason: SsoRefusal, who?: { id: string; email: string }) => {
    await recordAudit(ctx.db, {
      type: 'auth.signInFailed',
      actor: {
        kind: who ? 'user' : 'anonymous',
        id: who?.id ?? null,
        label: who?.email ?? sso.settings.issuer!,
        ...origin,
      },
      metadata: { method: 'sso', reason },
    });
    return toLogin(reply, reason);
  };
  if (req.query.error) return refuse('denied');
  // Each return costs a token request to the provider: counted on the address's sign-in bucket first.
  if (!(await ctx.loginLimiter.reserveAddressAttempt(origin.ip)).ok)
    return toLogin(reply, 'too_many_attempts');
  let user: Awaited<ReturnType<typeof accountFor>>;
  try {
    const claims = await redeemCode(sso.settings, new URL(req.url, ctx.config.publicUrl), flow);
    user = await accountFor(ctx, sso.settings, claims, origin);
  } catch (err) {
    if (err instanceof SsoRefused) return refuse(err.reason, err.user);
    const down = err instanceof ProviderUnavailable || isNetworkError(err);
    req.log.warn({ err }, down ? 'single sign-on: the provider cannot be reached' : 'single sign-on failed');
    return refuse(down ? 'provider_unavailable' : 'failed');
  }
  const token = await startSession(ctx, user, origin, 'sso');
  setCookie(ctx, reply, DONE_COOKIE, { token, userId: user.id, returnTo: flow.returnTo }, DONE_TTL_S);
  return reply.redirect('/sso/complete', 302);
}

/** POST /api/auth/sso/exchange: the session this browser's trip made, once. */
export function takeSession(ctx: AppContext, req: FastifyRequest, reply: FastifyReply) {
  const done = readCookie<{ token: string; userId: string; returnTo: string }>(ctx, req, DONE_COOKIE);
  clearCookie(reply, DONE_COOKIE);
  return done;
}

/** fetch's failures to connect or time out, which openid-client passes through. */
const isNetworkError = (err: unknown) =>
  err instanceof TypeError || (err instanceof Error && ['AbortError', 'TimeoutError'].includes(err.name));
