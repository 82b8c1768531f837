// Builds the web UI into web/dist, which the API server serves at /.
// `npm run dev:web` proxies API calls to a server on :3000 (`npm run dev`).
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { precompress } from './precompress.js';
import { shellCache } from './shell-cache.js';

const root = fileURLToPath(new URL('.', import.meta.url));
const api = process.env.TRACKWAY_API ?? 'http://localhost:3000';

export default defineConfig({
  root,
  plugins: [react(), shellCache(), precompress()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: true,
    // GraphiQL (with its Monaco editor) is a page of its own; the app never loads it.
    rollupOptions: { input: { app: `${root}index.html`, graphiql: `${root}graphiql.html` } },
    chunkSizeWarningLimit: 5000,
  },
  server: { proxy: { '/api': api, '/graphql': api } },
});
