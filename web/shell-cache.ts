// Writes /sw.js (the app shell's service worker, web/sw/service-worker.js)
// into the build with the list of files it keeps: the app's entry, every
// chunk it may load (lazy pages included), their styles and the files those
// name (fonts, images), but not GraphiQL's page and its editor, which the app
// never loads. The version is a hash of that list; the names carry their
// content's hash, so any change to the app gives a new worker and a new cache.
import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import type { Plugin, Rollup } from 'vite';

type OutputBundle = Rollup.OutputBundle;
type OutputChunk = Rollup.OutputChunk;

const WORKER_SOURCE = new URL('./sw/service-worker.js', import.meta.url);

/** The files the app's entry reaches: its chunks (static and lazy imports), their styles and assets. */
export function shellFiles(bundle: OutputBundle, entryName: string): string[] {
  const chunks = Object.values(bundle).filter((f): f is OutputChunk => f.type === 'chunk');
  const entry = chunks.find((c) => c.isEntry && c.name === entryName);
  if (!entry) throw new Error(`shell-cache: no entry chunk named ${entryName}`);
  const byName = new Map(chunks.map((c) => [c.fileName, c]));
  const files = new Set<string>();
  const visit = (chunk: OutputChunk) => {
    if (files.has(chunk.fileName)) return;
    files.add(chunk.fileName);
    for (const css of chunk.viteMetadata?.importedCss ?? []) files.add(css);
    for (const asset of chunk.viteMetadata?.importedAssets ?? []) files.add(asset);
    for (const name of [...chunk.imports, ...chunk.dynamicImports]) {
      const next = byName.get(name);
      if (next) visit(next);
    }
  };
  visit(entry);
  // Files the styles name (fonts, images) are in the bundle as assets the CSS refers to by name.
  for (const file of Object.values(bundle)) {
    if (file.type !== 'asset' || !/\.(woff2?|ttf|otf|svg|png|webp)$/.test(file.fileName)) continue;
    const base = file.fileName.split('/').pop()!;
    const used = [...files].some((f) => {
      const css = bundle[f];
      return f.endsWith('.css') && css?.type === 'asset' && String(css.source).includes(base);
    });
    if (used) files.add(file.fileName);
  }
  return [...files].sort();
}

export function shellCache(entryName = 'app'): Plugin {
  return {
    name: 'trackway-shell-cache',
    apply: 'build',
    async generateBundle(_options, bundle) {
      const assets = shellFiles(bundle, entryName).map((f) => `/${f}`);
      const version = createHash('sha256').update(assets.join('\n')).digest('hex').slice(0, 16);
      const source = await fs.readFile(WORKER_SOURCE, 'utf8');
      this.emitFile({
        type: 'asset',
        fileName: 'sw.js',
        source: `const SHELL = ${JSON.stringify({ version, assets })};\n${source}`,
      });
    },
  };
}
