// REST: the one-click unsubscribe of notification email (RFC 8058) and the
// user's own mail preference, to turn it back on.
import { Type } from 'typebox';
import type { AppContext } from '../../platform/context.js';
import { AppError } from '../../platform/errors.js';
import { actorOf } from '../../platform/http/auth-hook.js';
import { errors } from '../../platform/http/schemas.js';
import type { Http } from '../../platform/http/types.js';
import { UNSUBSCRIBE_TOKEN_MAX, verifyUnsubscribeToken } from './digest.js';
import { myPreferences, setEmailNotifications } from './service.js';

const Preferences = Type.Object({
  preferences: Type.Object({
    emailNotifications: Type.Boolean({ description: 'Whether notification digests are emailed' }),
  }),
  emailAvailable: Type.Boolean({
    description:
      'Whether this server sends email at all (SMTP set up); without it the preference is kept but nothing is sent',
  }),
});
const Token = Type.Object(
  { token: Type.String({ minLength: 1, maxLength: UNSUBSCRIBE_TOKEN_MAX }) },
  { additionalProperties: false },
);

const invalidToken = () =>
  new AppError(400, 'INVALID_UNSUBSCRIBE_TOKEN', 'This unsubscribe link is not valid');

// The form posts to the page's own URL (token included): nothing to escape.
const UNSUBSCRIBE_PAGE = `<!doctype html><html lang="en"><meta charset="utf-8">
<meta name="viewport" content="width=device-width,initial-scale=1"><title>Unsubscribe</title>
<body><p>Stop notification emails from Trackway?</p>
<form method="post"><button type="submit">Unsubscribe</button></form>
<p>You can turn them back on in Trackway at any time.</p></body></html>`;

export function mailRoutes(app: Http, ctx: AppContext): void {
  // Mail clients POST "List-Unsubscribe=One-Click" form-encoded; the body says
  // nothing the token does not, so it is read (bounded) and ignored.
  void app.register(async (scope) => {
    scope.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string', bodyLimit: 1024 },
      (_req, _body, done) => done(null, {}),
    );
    scope.post(
      '/api/mail/unsubscribe',
      {
        config: { auth: 'public' },
        schema: {
          tags: ['mail'],
          summary: 'One-click unsubscribe (RFC 8058): turns notification email off for the token’s user',
          querystring: Token,
          response: { 200: Type.Object({ ok: Type.Literal(true) }), ...errors(400) },
        },
      },
      async (req) => {
        const userId = verifyUnsubscribeToken(ctx, (req.query as { token: string }).token);
        if (!userId)
          throw new AppError(400, 'INVALID_UNSUBSCRIBE_TOKEN', 'This unsubscribe link is not valid');
        await setEmailNotifications(ctx, userId, false);
        return { ok: true as const };
      },
    );
  });

  // A person clicking the link in the message text gets a page with a button
  // that POSTs (above): a GET changes nothing, so link scanners unsubscribe no one.
  app.get(
    '/api/mail/unsubscribe',
    {
      config: { auth: 'public' },
      schema: {
        tags: ['mail'],
        summary: 'A page with one button that unsubscribes (the POST above)',
        querystring: Token,
        response: { 200: Type.String(), ...errors(400) },
      },
    },
    async (req, reply) => {
      if (!verifyUnsubscribeToken(ctx, (req.query as { token: string }).token)) throw invalidToken();
      return reply.type('text/html; charset=utf-8').send(UNSUBSCRIBE_PAGE);
    },
  );

  app.get(
    '/api/me/preferences',
    {
      schema: {
        tags: ['mail'],
        summary: 'Your own preferences (notification email)',
        response: { 200: Preferences, ...errors(401) },
      },
    },
    async (req) => {
      return myPreferences(ctx, actorOf(req));
    },
  );

  app.patch(
    '/api/me/preferences',
    {
      schema: {
        tags: ['mail'],
        summary: 'Change your own preferences: turn notification email on or off',
        body: Type.Object({ emailNotifications: Type.Boolean() }, { additionalProperties: false }),
        response: { 200: Preferences, ...errors(400, 401) },
      },
    },
    async (req) => {
      const id = actorOf(req).id;
      return setEmailNotifications(ctx, id, req.body.emailNotifications);
    },
  );
}
