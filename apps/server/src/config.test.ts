import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.ts';

const example = Object.fromEntries(
  readFileSync(new URL('../../../.env.example', import.meta.url), 'utf8')
    .split('\n')
    .filter((line) => /^[A-Z_]+=/.test(line))
    .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
);

describe('configuration from the environment', () => {
  it('accepts .env.example as it is, empty values meaning "not set"', () => {
    const config = loadConfig(example);
    expect(config.PORT).toBe(3000);
    expect(config.DATABASE_URL).toBe('sqlite:data/pos.db');
    expect(config.MP_BASE_URL).toBeUndefined();
  });

  it('names the variable that is wrong', () => {
    expect(() => loadConfig({ PORT: 'ochenta' })).toThrow(ConfigError);
    expect(() => loadConfig({ PORT: 'ochenta' })).toThrow(/PORT/);
    expect(() => loadConfig({ DATABASE_URL: 'mysql://x' })).toThrow(/DATABASE_URL/);
  });
});

describe('backup schedule settings', () => {
  it('reads BACKUP_EVERY as an interval (default one hour) or off', () => {
    expect(loadConfig({}).BACKUP_EVERY).toBe(3_600_000);
    expect(loadConfig({ BACKUP_EVERY: '30m' }).BACKUP_EVERY).toBe(1_800_000);
    expect(loadConfig({ BACKUP_EVERY: '2h' }).BACKUP_EVERY).toBe(7_200_000);
    expect(loadConfig({ BACKUP_EVERY: 'off' }).BACKUP_EVERY).toBeNull();
    expect(loadConfig({ BACKUP_DIR: '/media/usb' }).BACKUP_DIR).toBe('/media/usb');
  });

  it('refuses intervals under a minute or that it cannot read, naming BACKUP_EVERY', () => {
    expect(() => loadConfig({ BACKUP_EVERY: '10s' })).toThrow(/BACKUP_EVERY/);
    expect(() => loadConfig({ BACKUP_EVERY: 'cada hora' })).toThrow(/BACKUP_EVERY/);
  });
});
