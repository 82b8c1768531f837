// `npm run restore -- <file>`: an archive of `npm run export` into an empty
// installation (docs/migrate.md). Applies the migrations first, so a new
// database needs nothing else; refuses a database that holds any workspace data.
import { loadConfig } from '../config.js';
import { RestoreRefused, restoreArchive } from '../modules/portability/restore.js';
import { openDatabase } from '../platform/db/database.js';
import { migrate } from '../platform/db/migrate.js';
import { applyHeapPolicy } from '../platform/heap-policy.js';
import { fileStoreFor } from '../platform/storage/index.js';

const file = process.argv[2];
if (!file) {
  console.error('usage: npm run restore -- <archive.tar>');
  process.exit(2);
}
applyHeapPolicy('batch');
const config = loadConfig();
const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
try {
  await migrate(database.db);
  const summary = await restoreArchive(database.db, file, {
    storeFor: (db) => fileStoreFor({ config, db }),
    onProgress: (m) => console.log(m),
  });
  console.log(
    `restored ${summary.rows} rows in ${summary.tables} tables and ${summary.files} files from ${file} (exported ${summary.manifest.createdAt})`,
  );
} catch (err) {
  console.error(err instanceof RestoreRefused ? `restore refused: ${err.message}` : err);
  process.exitCode = 1;
} finally {
  await database.close();
}
