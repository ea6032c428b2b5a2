import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig, proxyTrustRefusal } from '../src/config.ts';
import { freePort, REPO_ROOT, spawnTsProcess } from '../src/testing/index.ts';

/** TRUST_PROXY=true with HOST beyond loopback: any device could claim 127.0.0.1 and read /metrics. */
describe('TRUST_PROXY=true on a server the network reaches directly', () => {
  const refusal = (env: Record<string, string>) => proxyTrustRefusal(loadConfig(env), env);

  it('is refused with what to set instead; an address, a hop count or a loopback HOST are not', () => {
    for (const host of [undefined, '0.0.0.0', '::', '192.168.1.20']) {
      const env = { TRUST_PROXY: 'true', ...(host ? { HOST: host } : {}) };
      const message = refusal(env);
      expect(message, host).toContain(`TRUST_PROXY=true no se permite con HOST=${host ?? '0.0.0.0'}`);
      expect(message).toContain('Indica la dirección del proxy');
      expect(message).toContain('TRUST_PROXY=1');
    }
    for (const host of ['127.0.0.1', '127.0.0.2', 'localhost', '::1', '[::1]'])
      expect(refusal({ TRUST_PROXY: 'true', HOST: host }), host).toBeNull();
    for (const trust of ['false', '1', '2', '192.168.1.20', '10.0.0.0/8,loopback'])
      expect(refusal({ TRUST_PROXY: trust, HOST: '0.0.0.0' }), trust).toBeNull();
  });

  describe('the real start', () => {
    let dir = '';
    beforeAll(() => {
      dir = mkdtempSync(join(tmpdir(), 'comanda-proxy-'));
    });
    afterAll(() => rmSync(dir, { recursive: true, force: true }));
    const env = (name: string) => ({
      DATA_DIR: join(dir, name),
      DATABASE_URL: `sqlite:${join(dir, name, 'pos.db')}`,
      PIN_SECRET: 'test-pin-secret-0123456789',
      DEMO_DATA: 'off',
      WEB_DIST: '/nonexistent-web-dist',
    });

    it('stops with the message, in Spanish and without a stack trace, and opens no port', async () => {
      const port = await freePort();
      const child = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
        cwd: REPO_ROOT,
        env: { ...process.env, ...env('refused'), HOST: '0.0.0.0', PORT: String(port), TRUST_PROXY: 'true', LOG_LEVEL: 'warn' },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let output = '';
      child.stdout.on('data', (d: Buffer) => (output += d.toString()));
      child.stderr.on('data', (d: Buffer) => (output += d.toString()));
      const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
      const code = await new Promise<number | null>((resolve) => child.once('exit', (c) => resolve(c)));
      clearTimeout(timer);
      expect(code).toBe(1);
      expect(output).toContain('TRUST_PROXY=true no se permite con HOST=0.0.0.0');
      expect(output).not.toMatch(/^\s+at /m);
      await expect(fetch(`http://127.0.0.1:${port}/api/health`)).rejects.toThrow();
    }, 40_000);

    it("starts beyond loopback with the proxy's address", async () => {
      const port = await freePort();
      const proc = await spawnTsProcess(
        'apps/server/src/main.ts',
        { ...env('address'), HOST: '0.0.0.0', TRUST_PROXY: '192.168.1.20' },
        port,
        '/api/health',
      );
      try {
        expect((await fetch(`${proc.url}/api/health`)).status).toBe(200);
      } finally {
        await proc.stop();
      }
    }, 70_000);
  });
});
