// Prints the REST API's OpenAPI document (the one GET /api/openapi.json serves)
// without listening, for the web UI's code generation: the routes' TypeBox
// schemas become the types of web/src/lib/api.ts, so a server change that
// breaks a call in the UI fails `npm run typecheck`.
//   npx tsx scripts/print-openapi.ts [out-file]
// The app is built on a throw-away in-memory PGlite: registering the routes
// needs a context, and a context needs a database.
import fs from 'node:fs';
import path from 'node:path';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { openDatabase } from '../src/platform/db/database.js';

const out = process.argv[2] ?? 'web/src/rest/openapi.json';
// Only what building the app needs: no data directory, no SMTP, nothing from the caller's environment.
const config = loadConfig({ JWT_SECRET: 'x'.repeat(32), LOG_LEVEL: 'warn' });
const database = await openDatabase({});
const { app } = await buildApp({ config, database, logger: false, mailWorker: false });
await app.ready();
const document = app.swagger();
await app.close();
await database.close();
fs.mkdirSync(path.dirname(out), { recursive: true });
fs.writeFileSync(out, `${JSON.stringify(document, null, 2)}\n`);
