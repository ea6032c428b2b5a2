#!/usr/bin/env node
// Builds the server for `npm start`: our own TypeScript (apps/server and packages/*) bundled by
// esbuild into apps/server/dist/main.js (and cli.js, which the scheduled backup runs as a child),
// one ESM file each, run by plain `node`. Every npm dependency stays external and is loaded from
// node_modules as before, so native modules (better-sqlite3, argon2) and the lazily imported ones
// (exceljs, nodemailer, qrcode) are untouched. No tsx in the running server: no loader thread, no
// transpile cache, about 45 MB less resident (docs/decisions/0034-a-built-server.md).
//
// dist/ sits beside src/ at the same depth, so paths computed from import.meta.url in main.ts
// (the web app's dist) resolve to the same places from either.
import { build } from 'esbuild';
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const server = join(root, 'apps/server');
// --outdir <dir>: elsewhere than apps/server/dist (the smoke test builds its own copy). Keep it
// under apps/server, so node still finds the dependencies in node_modules above it.
const at = process.argv.indexOf('--outdir');
const outdir = at > 0 ? resolve(process.argv[at + 1] ?? '') : join(server, 'dist');

/** Bare imports other than our workspace packages stay imports: node resolves them from node_modules. */
const externalDependencies = {
  name: 'external-dependencies',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (args) => {
      if (args.path.startsWith('@comanda/')) return undefined;
      return { path: args.path, external: true };
    });
  },
};

const started = Date.now();
const result = await build({
  entryPoints: { main: join(server, 'src/main.ts'), cli: join(server, 'src/cli.ts') },
  outdir,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  // A stack trace names the source file and line when the server runs with --enable-source-maps.
  sourcemap: 'linked',
  sourcesContent: false,
  // Class and function names stay (error names, logs); nothing is minified.
  keepNames: true,
  legalComments: 'none',
  logLevel: 'warning',
  plugins: [externalDependencies],
  write: false,
});
// Each file is written beside its place and renamed over it: a server starting while another
// build runs (a test, a benchmark) reads the old file or the new one, never half of one.
mkdirSync(outdir, { recursive: true });
for (const file of result.outputFiles) {
  const temporary = `${file.path}.${process.pid}.tmp`;
  writeFileSync(temporary, file.contents);
  renameSync(temporary, file.path);
}
if (!process.argv.includes('--quiet')) console.log(`server built: ${relative(root, outdir)} (${Date.now() - started} ms)`);
