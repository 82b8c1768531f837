// Compresses API answers and the UI's assets (brotli or gzip, as the client
// accepts). Only our own text formats: uploaded files go out byte for byte, and
// a live stream must not wait in a compressor's buffer.
import zlib from 'node:zlib';
import compress from '@fastify/compress';
import type { Http } from './types.js';

/** JSON (REST, GraphQL), scripts, styles, HTML and SVG we build; never text/event-stream. */
const OUR_TEXT =
  /^(application\/(json|graphql-response\+json|javascript)|text\/(html|css|javascript)|image\/svg\+xml)\b/;

/** Routes that send stored user files: their bytes and Content-Length are kept as uploaded. */
const STORED_FILES = /^\/api\/(files|attachments)\//;

export async function installCompression(app: Http): Promise<void> {
  // Added before the plugin, so its own onRoute hook already sees the setting.
  app.addHook('onRoute', (route) => {
    if (STORED_FILES.test(route.url)) route.compress = false;
  });
  await app.register(compress, {
    customTypes: OUR_TEXT,
    encodings: ['br', 'gzip'],
    // Below ~1 KB the headers outweigh the saving.
    threshold: 1024,
    // Brotli's default quality (11) costs ~10x the CPU of quality 4 for a few percent
    // more: too dear for answers compressed on every request.
    brotliOptions: { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4 } },
    zlibOptions: { level: 6 },
    // Compressed request bodies are not part of our API: one less way to send a small bomb.
    globalDecompression: false,
  });
}
