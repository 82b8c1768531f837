// `npm run migrate`: apply pending migrations and exit.
import { loadConfig } from '../config.js';
import { openDatabase } from '../platform/db/database.js';
import { migrate } from '../platform/db/migrate.js';

const config = loadConfig();
const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
const ran = await migrate(database.db);
console.log(ran.length ? `applied migrations: ${ran.join(', ')}` : 'database is up to date');
await database.close();
