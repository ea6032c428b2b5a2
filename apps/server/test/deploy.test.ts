import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.ts';
import { REPO_ROOT } from '../src/testing/index.ts';

const UNIT = join(REPO_ROOT, 'deploy/comanda.service');
const ENV = join(REPO_ROOT, 'deploy/comanda.env');
const hasSystemdAnalyze = spawnSync('systemd-analyze', ['--version']).status === 0;

function directives(text: string): Map<string, string[]> {
  const map = new Map<string, string[]>();
  for (const line of text.split('\n')) {
    const m = /^([A-Za-z]+)=(.*)$/.exec(line.trim());
    if (m) map.set(m[1]!, [...(map.get(m[1]!) ?? []), m[2]!]);
  }
  return map;
}

describe('the shipped systemd unit (deploy/comanda.service)', () => {
  if (!hasSystemdAnalyze) console.warn('systemd-analyze is not installed: skipping `systemd-analyze verify deploy/comanda.service`');
  it.skipIf(!hasSystemdAnalyze)('passes systemd-analyze verify (skipped where systemd-analyze is not installed)', () => {
    // Throws (with systemd's complaint) on any error in the unit.
    const out = execFileSync('systemd-analyze', ['verify', UNIT], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    expect(out).toBe('');
  });

  it('runs the real entry point, stops with SIGTERM and restarts itself', () => {
    const d = directives(readFileSync(UNIT, 'utf8'));
    const exec = d.get('ExecStart')![0]!;
    // The built server, as `npm start` runs it (decision 0034); `npm run build` makes it at install.
    expect(exec).toMatch(
      /^\/usr\/bin\/node --enable-source-maps --max-semi-space-size=4 --single-threaded-gc apps\/server\/dist\/main\.js$/,
    );
    const pkg = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    expect(pkg.scripts.start).toContain(exec.replace('/usr/bin/node ', 'node '));
    expect(pkg.scripts.build).toContain('build:server');
    expect(existsSync(join(REPO_ROOT, 'scripts/build-server.mjs'))).toBe(true);
    expect(d.get('KillSignal')).toEqual(['SIGTERM']);
    expect(d.get('Restart')).toEqual(['always']);
    expect(d.get('StateDirectory')).toEqual(['comanda']);
    expect(d.get('EnvironmentFile')).toEqual(['/etc/comanda/comanda.env']);
    expect(d.get('WantedBy')).toEqual(['multi-user.target']);
  });

  it('its example settings file is a valid configuration that keeps data and backups in the state folder', () => {
    const env = Object.fromEntries(
      readFileSync(ENV, 'utf8')
        .split('\n')
        .filter((l) => /^[A-Z_]+=/.test(l))
        .map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]),
    );
    const config = loadConfig(env);
    expect(config.DATA_DIR).toBe('/var/lib/comanda');
    expect(config.DATABASE_URL).toBe('sqlite:/var/lib/comanda/pos.db');
    expect(config.DEMO_DATA).toBe('off');
    expect(config.BACKUP_EVERY).toBe(3_600_000);
    expect(config.BACKUP_DIR?.startsWith('/var/lib/comanda')).toBe(true);
  });
});
