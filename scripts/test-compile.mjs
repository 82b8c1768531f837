// The test run's compiled copy of the repository, in .test-cache/js: every
// TypeScript file of src/, test/, bench/ and scripts/ transpiled once by
// esbuild (the transform tsx applies, file by file, with an inline source
// map so stack traces name the .ts lines), and everything else linked, so
// paths a module computes from its own location (../docs, web/dist,
// node_modules, `node --import tsx src/server.ts` in a spawned server)
// find what they find in the checkout. A test process then loads plain
// JavaScript: about 1 s less CPU per test file than tsx, whose loader
// thread, esbuild service and cache lookups every file paid again.
import fs from 'node:fs';
import path from 'node:path';
import { transform } from 'esbuild';

// web/src: tests import the UI's pure modules (web/src/lib/markdown-parse.ts, ...).
const COMPILED = ['src', 'test', 'bench', 'scripts', 'web/src'];

/** Builds `out` from the checkout at `root`; returns the number of files transpiled. */
export async function compileForTests(root, out) {
  fs.rmSync(out, { recursive: true, force: true });
  fs.mkdirSync(out, { recursive: true });
  const jobs = [];
  mirror(root, out, '', jobs);
  // esbuild's service transforms in parallel; the batch bounds open files.
  for (let i = 0; i < jobs.length; i += 64) await Promise.all(jobs.slice(i, i + 64).map((job) => job()));
  return jobs.length;
}

/** Links what is not compiled; walks into the compiled folders and their parents. */
function mirror(root, out, rel, jobs) {
  for (const e of fs.readdirSync(path.join(root, rel))) {
    const r = rel ? `${rel}/${e}` : e;
    if (r === '.test-cache' || r === '.git') continue;
    if (COMPILED.includes(r)) walk(path.join(root, r), path.join(out, r), jobs);
    else if (COMPILED.some((c) => c.startsWith(`${r}/`))) {
      fs.mkdirSync(path.join(out, r));
      mirror(root, out, r, jobs);
    } else fs.symlinkSync(path.join(root, r), path.join(out, r));
  }
}

function walk(src, dst, jobs) {
  if (!fs.existsSync(src)) return;
  fs.mkdirSync(dst, { recursive: true });
  for (const e of fs.readdirSync(src, { withFileTypes: true })) {
    const from = path.join(src, e.name);
    const to = path.join(dst, e.name);
    if (e.isDirectory()) {
      if (e.name !== 'node_modules') walk(from, to, jobs);
      continue;
    }
    // Every file is also linked as it is: a .ts beside its .js serves children started with tsx.
    fs.symlinkSync(from, to);
    if (!e.name.endsWith('.ts') || e.name.endsWith('.d.ts')) continue;
    const js = from.replace(/\.ts$/, '.js');
    // Writing the output over a link would write through it, into the checkout.
    if (fs.existsSync(js)) throw new Error(`${js} and its .ts would compile to the same file`);
    jobs.push(() => transpile(from, to.replace(/\.ts$/, '.js')));
  }
}

async function transpile(from, to) {
  const source = fs.readFileSync(from, 'utf8');
  const { code } = await transform(source, {
    loader: 'ts',
    format: 'esm',
    platform: 'node',
    target: 'node20',
    sourcemap: 'inline',
    sourcefile: from,
    // The settings of tsconfig.json that change emitted code.
    tsconfigRaw: { compilerOptions: { verbatimModuleSyntax: true, useDefineForClassFields: true } },
  });
  fs.writeFileSync(to, code);
}
