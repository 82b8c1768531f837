// Writes a brotli (.br) and a gzip (.gz) copy beside each built script, style
// and image, which the server sends as they are (@fastify/static preCompressed,
// src/modules/ui/serve.ts): the hashed assets never change, so compressing them
// once at build beats compressing them again on every request.
import fs from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { Plugin } from 'vite';

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/** The server's own threshold for compressing (platform/http/compression.ts): smaller goes out as is. */
const MIN_BYTES = 1024;
const COMPRESSIBLE = /\.(js|css|svg|html)$/;

export function precompress(): Plugin {
  let outDir = '';
  return {
    name: 'trackway-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    async writeBundle() {
      const dir = path.join(outDir, 'assets');
      const names = (await fs.readdir(dir)).filter((n) => COMPRESSIBLE.test(n));
      await Promise.all(
        names.map(async (name) => {
          const file = path.join(dir, name);
          const bytes = await fs.readFile(file);
          if (bytes.length < MIN_BYTES) return;
          // Quality 9, not 11: within a few percent of the smallest, at about a tenth of
          // the build's time (11 took ~45 s of CPU for these files).
          const br = await brotli(bytes, {
            params: {
              [zlib.constants.BROTLI_PARAM_QUALITY]: 9,
              [zlib.constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
            },
          });
          await fs.writeFile(`${file}.br`, br);
          await fs.writeFile(`${file}.gz`, await gzip(bytes, { level: 9 }));
        }),
      );
    },
  };
}
