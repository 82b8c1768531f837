// Entry point: read configuration, open the database, build the app, listen,
// and shut down cleanly on SIGTERM/SIGINT.
import { buildApp } from './app.js';
import { ConfigError, loadConfig } from './config.js';
import { openDatabase } from './platform/db/database.js';
import { applyHeapPolicy } from './platform/heap-policy.js';

async function main() {
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(`trackway: configuration error: ${err.message}`);
      process.exit(2);
    }
    throw err;
  }

  applyHeapPolicy(config.databaseUrl ? 'postgres' : 'pglite');
  const database = await openDatabase({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    statementTimeoutMs: config.statementTimeoutMs,
  });
  const { app, generatedAdmin } = await buildApp({ config, database });

  if (generatedAdmin) {
    // Printed once, on the start that created the account; never stored in clear.
    process.stdout.write(
      `\n  First admin created: ${generatedAdmin.email}  password: ${generatedAdmin.password}\n` +
        '  (shown only now; change it under Settings after signing in)\n\n',
    );
  }

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    // The workers each wait up to 10 s for their jobs in flight, one after another; an orchestrator
    // gives 30 s before SIGKILL (Kubernetes' default grace). At 10 s a loaded machine once ran out.
    const force = setTimeout(() => process.exit(1), 28_000);
    force.unref();
    await app.close();
    await database.close();
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));

  await app.listen({ port: config.port, host: config.host });
  app.log.info({ database: database.kind, url: config.publicUrl }, 'trackway is ready');
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
