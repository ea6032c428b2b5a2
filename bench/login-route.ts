/**
 * Login route JS (QUALITY.md, issue 20): gzip level 6 of the entry chunk and its static imports
 * (what the browser loads eagerly on /login), read from the manifest of a real
 * `vite build apps/web --manifest`, with a per-file breakdown. Target ≤ 150 KB.
 *
 *   npx tsx bench/login-route.ts            builds into a temporary directory
 *   npx tsx bench/login-route.ts <dist>     reads an existing build made with --manifest
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { buildWebWithManifest, loginRouteFiles, readManifest } from './lib.ts';

const given = process.argv[2];
const dist = given ?? mkdtempSync(join(tmpdir(), 'comanda-login-route-'));
try {
  const manifest = given ? readManifest(dist) : buildWebWithManifest(dist);
  let total = 0;
  const rows: [string, number][] = [];
  for (const file of loginRouteFiles(manifest)) {
    if (!file.endsWith('.js')) continue;
    const bytes = gzipSync(readFileSync(join(dist, file)), { level: 6 }).length;
    total += bytes;
    rows.push([file, bytes]);
  }
  for (const [file, bytes] of rows.sort((a, b) => b[1] - a[1])) console.log(`${String(bytes).padStart(8)}  ${file}`);
  console.log(
    `login route JS, gzip: ${total} bytes (${(total / 1024).toFixed(1)} KB), target ≤ 150 KB: ${total <= 150 * 1024 ? 'met' : 'NOT met'}`,
  );
} finally {
  if (!given) rmSync(dist, { recursive: true, force: true });
}
