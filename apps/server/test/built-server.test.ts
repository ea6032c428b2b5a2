import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { followChild, freePort, REPO_ROOT, startNodeFlags, waitUntilReady } from '../src/testing/process.ts';

// `npm start` runs the server built by scripts/build-server.mjs with plain node
// (docs/decisions/0034-a-built-server.md); the other suites run it from source. This one builds
// its own copy (under apps/server/dist, so node finds node_modules above it) and starts it.
describe('the built server (scripts/build-server.mjs)', () => {
  let out = '';
  let data = '';

  beforeAll(() => {
    mkdirSync(join(REPO_ROOT, 'apps/server/dist'), { recursive: true });
    out = mkdtempSync(join(REPO_ROOT, 'apps/server/dist/smoke-'));
    data = mkdtempSync(join(tmpdir(), 'comanda-built-'));
    const build = spawnSync(process.execPath, ['scripts/build-server.mjs', '--outdir', out, '--quiet'], {
      cwd: REPO_ROOT,
      encoding: 'utf8',
    });
    expect(build.status, build.stderr).toBe(0);
  });

  afterAll(() => {
    for (const dir of [out, data]) if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('is our code in one file per entry, with the dependencies left to node_modules and the heavy ones still lazy', () => {
    const main = readFileSync(join(out, 'main.js'), 'utf8');
    // The scheduled backup runs cli.js beside main.js (ops/backup-schedule.ts).
    expect(existsSync(join(out, 'cli.js'))).toBe(true);
    expect(main).not.toMatch(/from "tsx|from "@comanda\//);
    expect(main).toMatch(/from "fastify"/);
    for (const lazy of ['exceljs', 'nodemailer', 'qrcode']) {
      expect(main).toContain(`import("${lazy}")`);
      expect(main).not.toContain(`from "${lazy}"`);
    }
  });

  it('starts on a new SQLite data folder with plain node, seeds the demo, answers /api/health and stops on SIGTERM', async () => {
    const port = await freePort();
    // With the flags of `npm start` (package.json).
    const child = spawn(process.execPath, [...startNodeFlags(), join(out, 'main.js')], {
      cwd: REPO_ROOT,
      env: {
        PATH: process.env.PATH ?? '',
        HOST: '127.0.0.1',
        PORT: String(port),
        DATA_DIR: data,
        DATABASE_URL: `sqlite:${join(data, 'pos.db')}`,
        DEMO_DATA: 'auto',
        WEB_DIST: '/nonexistent-web-dist',
        BACKUP_EVERY: 'off',
        LOG_LEVEL: 'warn',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const followed = followChild(child);
    try {
      await waitUntilReady(child, `http://127.0.0.1:${port}/api/health`, {
        name: 'built server',
        timeoutMs: 30_000,
        output: followed.output,
      });
      expect(followed.output()).toContain('se cargaron datos de demostración');
    } finally {
      await followed.stop();
    }
    expect(child.exitCode, followed.output()).toBe(0);
  });

  it('its cli.js makes the backup the scheduled backup asks it for', () => {
    const dest = join(data, 'copia.db');
    const backup = spawnSync(process.execPath, [join(out, 'cli.js'), 'backup', '--to', dest], {
      cwd: REPO_ROOT,
      env: { PATH: process.env.PATH ?? '', DATABASE_URL: `sqlite:${join(data, 'pos.db')}`, DATA_DIR: data, BACKUP_EVERY: 'off' },
      encoding: 'utf8',
    });
    expect(backup.status, backup.stderr).toBe(0);
    expect(existsSync(dest)).toBe(true);
  });
});
