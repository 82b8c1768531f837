// The peer: PostGraphile 5 (a mature generated GraphQL server) on the same
// database, so the nested-issues question can be compared server to server.
// Usage: node bench/peer-postgraphile.mjs <connection string> <port>
import { createServer } from 'node:http';

// PostGraphile 5 targets Node 22; this is the one API it needs that Node 20 lacks.
if (!Promise.withResolvers) {
  Promise.withResolvers = () => {
    let resolve;
    let reject;
    const promise = new Promise((a, b) => {
      resolve = a;
      reject = b;
    });
    return { promise, resolve, reject };
  };
}

const [connectionString, port] = process.argv.slice(2);
const { postgraphile } = await import('postgraphile');
const { PostGraphileAmberPreset } = await import('postgraphile/presets/amber');
const { makePgService } = await import('postgraphile/adaptors/pg');
const { grafserv } = await import('postgraphile/grafserv/node');

const pgl = postgraphile({
  extends: [PostGraphileAmberPreset],
  // Same pool size as our server's default.
  pgServices: [makePgService({ connectionString, schemas: ['public'], poolConfig: { max: 10 } })],
  grafast: { explain: false },
});
const serv = pgl.createServ(grafserv);
const server = createServer();
await serv.addTo(server);
server.listen(Number(port), '127.0.0.1', () => console.log(`postgraphile listening on ${port}`));

const stop = async () => {
  server.close();
  await pgl.release();
  process.exit(0);
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
