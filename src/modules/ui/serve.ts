// Serves the built web UI (web/dist) from the API's own server. Hashed files
// under /assets/ are looked up on each request (so a rebuild while the server
// runs is picked up); any other GET that is not an API path gets index.html so
// the client-side router can take it, but /sw.js, the app shell's service worker.
// /api/* and /graphql keep their JSON 404.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { AppContext } from '../../platform/context.js';
import { AppError } from '../../platform/errors.js';
import type { Http } from '../../platform/http/types.js';

/** src/modules/ui and dist/modules/ui are both three levels below the project root. */
export const WEB_DIST = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../web/dist');

const isApiPath = (url: string) => /^\/(api|graphql)(\/|\?|$)/.test(url);

export async function serveWebUi(app: Http, ctx: AppContext, root = WEB_DIST): Promise<void> {
  const indexFile = path.join(root, 'index.html');
  const assets = path.join(root, 'assets');
  const workerFile = path.join(root, 'sw.js');
  if (!fs.existsSync(indexFile)) {
    ctx.log.warn({ root }, 'web UI is not built (run `npm run build`); serving the API only');
  }

  // The UI is public (it signs in by itself): mark every route in this scope so.
  await app.register(async (scope) => {
    scope.addHook('onRoute', (route) => {
      route.config = { ...(route.config ?? {}), auth: 'public' };
    });
    if (fs.existsSync(assets)) {
      await scope.register(fastifyStatic, {
        root: assets,
        prefix: '/assets/',
        index: false,
        // Vite fingerprints every file name under assets/, so they never change.
        maxAge: '365d',
        immutable: true,
        // The build writes .br and .gz copies (web/precompress.ts); sent as they are,
        // @fastify/compress leaves an answer that already has an encoding.
        preCompressed: true,
      });
    }

    scope.get('/*', { schema: { hide: true } }, async (req, reply) => {
      const url = req.url;
      if (isApiPath(url)) {
        const err = new AppError(404, 'NOT_FOUND', `No route for ${req.method} ${url.split('?')[0]}`);
        return reply.status(404).send(err.toJSON());
      }
      // The app shell's service worker (web/sw/service-worker.js): at the root, so its scope is
      // the whole app; never cached by HTTP, so a new build's worker is found on the next visit.
      if (url.split('?')[0] === '/sw.js' && fs.existsSync(workerFile)) {
        return reply
          .header('cache-control', 'no-cache')
          .type('text/javascript; charset=utf-8')
          .send(await fs.promises.readFile(workerFile));
      }
      if (url.startsWith('/assets/') || !fs.existsSync(indexFile)) {
        if (url.startsWith('/assets/')) return reply.status(404).type('text/plain').send('Not found');
        return reply
          .status(503)
          .type('text/plain; charset=utf-8')
          .send('The web UI is not built. Run `npm run build`, then restart the server.');
      }
      return reply
        .header('cache-control', 'no-cache')
        .type('text/html; charset=utf-8')
        .send(await fs.promises.readFile(indexFile));
    });
  });
}
