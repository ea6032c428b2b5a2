import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.ts';
import { createServer } from '../src/server.ts';

const run = promisify(execFile);
const root = new URL('../../..', import.meta.url).pathname;

describe('create-admin command', () => {
  const dir = mkdtempSync(join(tmpdir(), 'comanda-cli-'));
  const env = { ...process.env, DATABASE_URL: `sqlite:${join(dir, 'pos.db')}`, DATA_DIR: dir, PIN_SECRET: 'test-pin-secret-0123456789' };
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('creates an administrator who can sign in, with the password from the environment', async () => {
    await run(
      'npx',
      ['tsx', 'apps/server/src/cli.ts', 'create-admin', '--email', 'Dueno@MiBar.mx', '--name', 'Dueño', '--pin', '9876', '--tables', '5'],
      {
        cwd: root,
        env: { ...env, COMANDA_ADMIN_PASSWORD: 'una-clave-segura' },
      },
    );
    const server = await createServer({ config: loadConfig({ ...env, LOG_LEVEL: 'silent', DEMO_DATA: 'off' }), log: () => undefined });
    try {
      const res = await server.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { email: 'dueno@mibar.mx', password: 'una-clave-segura' },
      });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ user: { role: 'admin', displayName: 'Dueño' } });
      const tables = await server.ctx.db.db.selectFrom('tables').select('number').orderBy('number').execute();
      expect(tables.map((t) => t.number)).toEqual([0, 1, 2, 3, 4, 5]);
    } finally {
      await server.close();
    }
  }, 60_000);

  it('refuses a password shorter than 8 characters', async () => {
    await expect(
      run('npx', ['tsx', 'apps/server/src/cli.ts', 'create-admin', '--email', 'x@y.mx', '--name', 'X'], {
        cwd: root,
        env: { ...env, COMANDA_ADMIN_PASSWORD: 'corta' },
      }),
    ).rejects.toMatchObject({ stderr: expect.stringMatching(/al menos 8/) });
  }, 60_000);
});
