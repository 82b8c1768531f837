// `npm run export -- <file>`: the whole workspace as one archive (docs/migrate.md).
// Written to <file>.partial and renamed when complete, so <file> is never half an archive.

import { createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import { pipeline } from 'node:stream/promises';
import { loadConfig } from '../config.js';
import { exportArchive } from '../modules/portability/export.js';
import { openDatabase } from '../platform/db/database.js';
import { applyHeapPolicy } from '../platform/heap-policy.js';
import { fileStoreFor } from '../platform/storage/index.js';

const file = process.argv[2];
if (!file) {
  console.error('usage: npm run export -- <archive.tar>');
  process.exit(2);
}
applyHeapPolicy('batch');
const config = loadConfig();
const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
const partial = `${file}.partial`;
try {
  let files = 0;
  await pipeline(
    exportArchive(database.db, {
      storeFor: (db) => fileStoreFor({ config, db }),
      onEntry: (e) => {
        if (e.rows === undefined) files++;
        else console.log(`${e.name}: ${e.rows} rows, ${e.bytes} bytes`);
      },
    }),
    createWriteStream(partial),
  );
  await fs.rename(partial, file);
  console.log(`exported ${files} files and every table to ${file}`);
} catch (err) {
  await fs.rm(partial, { force: true });
  console.error(`export failed: ${(err as Error).message}`);
  process.exitCode = 1;
} finally {
  await database.close();
}
