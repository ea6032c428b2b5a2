/**
 * Login route JS (QUALITY.md, issue 20): gzip level 6 of the entry chunk and its static imports
 * (what the browser loads eagerly on /login), read from the manifest of a real
 * `vite build apps/web --manifest`, with a per-file breakdown. Target ≤ 150 KB.
 *
 *   npx tsx bench/login-route.ts            builds into a temporary directory
 *   npx tsx bench/login-route.ts <dist>     reads an existing build made with --manifest
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { REPO_ROOT } from './lib.ts';

interface ManifestChunk {
  file: string;
  imports?: string[];
  isEntry?: boolean;
}
type Manifest = Record<string, ManifestChunk>;

function closure(manifest: Manifest, key: string, seen = new Set<string>()): Set<string> {
  const chunk = manifest[key];
  if (!chunk || seen.has(chunk.file)) return seen;
  seen.add(chunk.file);
  for (const dep of chunk.imports ?? []) closure(manifest, dep, seen);
  return seen;
}

const given = process.argv[2];
const dist = given ?? mkdtempSync(join(tmpdir(), 'comanda-login-route-'));
try {
  if (!given) {
    const args = ['vite', 'build', 'apps/web', '--outDir', dist, '--emptyOutDir', '--manifest', '--logLevel', 'warn'];
    const res = spawnSync('npx', args, { cwd: REPO_ROOT, encoding: 'utf8' });
    if (res.status !== 0) throw new Error(`vite build failed: ${res.stderr}`);
  }
  const manifest = JSON.parse(readFileSync(join(dist, '.vite', 'manifest.json'), 'utf8')) as Manifest;
  const entryKey = Object.keys(manifest).find((k) => manifest[k]!.isEntry) ?? 'index.html';
  let total = 0;
  const rows: [string, number][] = [];
  for (const file of closure(manifest, entryKey)) {
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
