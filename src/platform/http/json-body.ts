// The application's JSON body parser: Fastify's own (prototype-poisoning
// checks, size limit, empty-body errors), behind a nesting check on the raw
// text, so a body nested past MAX_JSON_DEPTH is refused before anything that
// recurses over it runs (docs/security.md, "Limits").
import { jsonTextTooDeep, jsonTooDeep } from './json-depth.js';
import type { Http } from './types.js';

export function installJsonBodyParser(app: Http): void {
  const parse = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  // SCIM clients send application/scim+json (RFC 7644 §3.1); it is JSON, parsed alike.
  app.addContentTypeParser(
    ['application/json', 'application/scim+json'],
    { parseAs: 'string' },
    (req, body, done) => {
      if (jsonTextTooDeep(body as string)) {
        done(jsonTooDeep('The request body'), undefined);
        return;
      }
      parse(req, body as string, done);
    },
  );
}
