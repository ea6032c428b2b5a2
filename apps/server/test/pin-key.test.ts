import { execFile } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import SQLite from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { createPinHasher } from '../src/auth/pin.ts';
import { forgetPins, PIN_KEY_FILE } from '../src/auth/pin-key.ts';
import { connect } from '../src/db/connect.ts';
import { backupSqliteFile } from '../src/ops/backup.ts';
import { runScheduledBackup } from '../src/ops/backup-schedule.ts';
import { createServer } from '../src/server.ts';
import { seedDemo } from '../src/seed/seed.ts';
import {
  createTestDatabase,
  DEMO_USERS,
  REPO_ROOT,
  testDatabaseKinds,
  testServerConfig,
  type TestDatabase,
  type TestDbKind,
} from '../src/testing/index.ts';

const run = promisify(execFile);
const cleanup: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const drop of cleanup.reverse()) await drop();
});

async function database(kind: TestDbKind): Promise<TestDatabase> {
  const db = await createTestDatabase(kind);
  cleanup.push(() => db.drop());
  return db;
}

/** A server as an owner runs it: no PIN_SECRET (the key is made and kept by the server itself). */
function ownerConfig(db: Pick<TestDatabase, 'url' | 'dataDir'>, env: Record<string, string> = {}) {
  return testServerConfig(db, { PIN_SECRET: '', BACKUP_EVERY: 'off', ...env });
}

const mode = (path: string) => statSync(path).mode & 0o777;

/**
 * The thief's attack on a lone database file: every string the `config` table holds is tried as
 * the HMAC key with all 10,000 PINs against every stored PIN hash, plus `extraKeys`.
 */
function crackPins(file: string, extraKeys: string[] = []): { found: Map<string, string>; keysTried: number; ms: number } {
  const started = performance.now();
  const db = new SQLite(file, { readonly: true, fileMustExist: true });
  const hashes = new Map(
    (db.prepare('select email, pin_hash from users where pin_hash is not null').all() as { email: string; pin_hash: string }[]).map((u) => [
      u.pin_hash,
      u.email,
    ]),
  );
  const strings = (value: unknown): string[] =>
    typeof value === 'string' ? [value] : value && typeof value === 'object' ? Object.values(value).flatMap(strings) : [];
  const keys = new Set(extraKeys);
  for (const row of db.prepare('select value from config').all() as { value: string }[]) {
    for (const s of strings(JSON.parse(row.value))) if (s.length >= 16) keys.add(s);
  }
  db.close();
  const found = new Map<string, string>();
  for (const key of keys) {
    const hasher = createPinHasher(key);
    for (let n = 0; n < 10_000; n++) {
      const pin = String(n).padStart(4, '0');
      const email = hashes.get(hasher.hash(pin));
      if (email) found.set(email, pin);
    }
  }
  return { found, keysTried: keys.size, ms: performance.now() - started };
}

describe('a stolen backup reveals no PIN (SQLite)', () => {
  it('tries all 10,000 PINs against a backup alone: none matches; with pin.key every PIN falls', { timeout: 60_000 }, async () => {
    const db = await database('sqlite');
    const server = await createServer({ config: ownerConfig(db), log: () => undefined });
    await seedDemo(server.ctx);
    const backup = join(db.dataDir, 'robado.db');
    await backupSqliteFile(db.url.slice('sqlite:'.length), backup);
    await server.close();
    // The thief has the backup only: no secret of any kind in the file.
    const theft = crackPins(backup);
    console.log(`backup alone: ${theft.keysTried} candidate keys, ${theft.found.size} PINs in ${theft.ms.toFixed(0)} ms`);
    expect(theft.found.size).toBe(0);
    const stored = new SQLite(backup, { readonly: true });
    expect(stored.prepare(`select key from config where key = 'secrets'`).all()).toEqual([]);
    stored.close();
    // The same attack with the key file in hand finds every PIN: the hashes are the real ones.
    const key = readFileSync(join(db.dataDir, PIN_KEY_FILE), 'utf8').trim();
    const withKey = crackPins(backup, [key]);
    console.log(`backup + pin.key: ${withKey.found.size} PINs in ${withKey.ms.toFixed(0)} ms`);
    expect(Object.fromEntries(withKey.found)).toEqual(Object.fromEntries(DEMO_USERS.map((u) => [u.email, u.pin])));
  });
});

describe('owner-only files whatever the umask (SQLite)', () => {
  it('database, -wal, -shm, pin.key, backups and their folder are 0600/0700 under umask 022', { timeout: 90_000 }, async () => {
    const previous = process.umask(0o022);
    try {
      const db = await database('sqlite');
      const dataDir = join(db.dataDir, 'data');
      const dbFile = join(dataDir, 'pos.db');
      const config = ownerConfig({ url: `sqlite:${dbFile}`, dataDir });
      const server = await createServer({ config, log: () => undefined });
      await seedDemo(server.ctx);
      expect(mode(dataDir)).toBe(0o700);
      for (const file of [dbFile, `${dbFile}-wal`, `${dbFile}-shm`, join(dataDir, PIN_KEY_FILE)]) expect(mode(file), file).toBe(0o600);
      // The scheduled backup (made by the backup command in a child process) and its folder.
      const state: Parameters<typeof runScheduledBackup>[1] = { dir: join(dataDir, 'backups'), last: null, lastError: null };
      await runScheduledBackup(server.ctx, state);
      expect(state.lastError).toBeNull();
      expect(mode(state.dir)).toBe(0o700);
      expect(mode(state.last!.file)).toBe(0o600);
      // The backup command by hand, started from a shell with umask 022.
      const byHand = join(db.dataDir, 'a-mano.db');
      await run('sh', ['-c', `umask 022 && exec "${process.execPath}" --import tsx apps/server/src/cli.ts backup --to "${byHand}"`], {
        cwd: REPO_ROOT,
        env: { ...process.env, DATABASE_URL: `sqlite:${dbFile}`, DATA_DIR: dataDir },
      });
      expect(mode(byHand)).toBe(0o600);
      await server.close();
      // An install made before: world-readable files become owner-only at the next start.
      for (const file of [dbFile, join(dataDir, PIN_KEY_FILE)]) chmodSync(file, 0o644);
      const again = await createServer({ config, log: () => undefined });
      for (const file of [dbFile, `${dbFile}-wal`, `${dbFile}-shm`, join(dataDir, PIN_KEY_FILE)]) expect(mode(file), file).toBe(0o600);
      await again.close();
    } finally {
      process.umask(previous);
    }
  });
});

describe.each(testDatabaseKinds())('the PIN key on %s', (kind) => {
  it('an install that kept the key in the database moves it to pin.key (0600), deletes it there, and every PIN still works', async () => {
    const db = await database(kind);
    const oldKey = 'a1'.repeat(32);
    // Staff PINs hashed under a key kept in the database, as installs before pin.key have them.
    const first = await createServer({ config: ownerConfig(db, { PIN_SECRET: oldKey }), log: () => undefined });
    await seedDemo(first.ctx);
    await first.ctx.db.db.deleteFrom('config').where('key', '=', 'pin_key').execute();
    await first.ctx.db.db
      .insertInto('config')
      .values({ key: 'secrets', value: JSON.stringify({ pin: oldKey }), updated_at: Date.now() })
      .execute();
    await first.close();

    const server = await createServer({ config: ownerConfig(db), log: () => undefined });
    try {
      const file = join(db.dataDir, PIN_KEY_FILE);
      expect(readFileSync(file, 'utf8').trim()).toBe(oldKey);
      expect(mode(file)).toBe(0o600);
      const config = await server.ctx.db.db.selectFrom('config').select(['key', 'value']).execute();
      expect(config.map((r) => r.key)).not.toContain('secrets');
      expect(config.some((r) => r.value.includes(oldKey))).toBe(false);
      const users = await server.ctx.db.db.selectFrom('users').select(['email', 'pin_hash']).execute();
      for (const demo of DEMO_USERS)
        expect(users.find((u) => u.email === demo.email)?.pin_hash, demo.email).toBe(server.ctx.pins.hash(demo.pin));
    } finally {
      await server.close();
    }
  });

  it('a process without the database key refuses to start in Spanish, and forget-pins lets it start with PINs cleared', async () => {
    const db = await database(kind);
    const first = await createServer({ config: ownerConfig(db), log: () => undefined });
    await seedDemo(first.ctx);
    await first.close();
    // Another folder: no pin.key (a second process of the same PostgreSQL, a restore on a new machine).
    const elsewhere = join(db.dataDir, 'otra');
    await expect(createServer({ config: ownerConfig(db, { DATA_DIR: elsewhere }), log: () => undefined })).rejects.toThrow(
      /Falta la llave de los PIN .*pin\.key/,
    );
    expect(existsSync(join(elsewhere, PIN_KEY_FILE))).toBe(false);
    // Another key: refused, nothing written.
    mkdirSync(elsewhere, { recursive: true });
    writeFileSync(join(elsewhere, PIN_KEY_FILE), 'b2'.repeat(32), { mode: 0o600 });
    await expect(createServer({ config: ownerConfig(db, { DATA_DIR: elsewhere }), log: () => undefined })).rejects.toThrow(
      /La llave de los PIN no coincide/,
    );
    await expect(
      createServer({ config: ownerConfig(db, { PIN_SECRET: 'otra-llave-de-pin-0123456789' }), log: () => undefined }),
    ).rejects.toThrow(/no coincide/);
    // The same folder still starts; forget-pins clears every PIN and lets the other key in.
    const same = await createServer({ config: ownerConfig(db), log: () => undefined });
    await same.close();
    const handle = connect(db.url);
    try {
      expect(await forgetPins(handle, Date.now())).toBe(DEMO_USERS.length);
    } finally {
      await handle.close();
    }
    const fresh = await createServer({ config: ownerConfig(db, { DATA_DIR: elsewhere }), log: () => undefined });
    try {
      const hashes = await fresh.ctx.db.db.selectFrom('users').select('pin_hash').execute();
      expect(hashes.every((u) => u.pin_hash === null)).toBe(true);
      const audited = await fresh.ctx.db.db
        .selectFrom('audit_log')
        .select('action')
        .where('action', '=', 'users.pins_forgotten_cli')
        .execute();
      expect(audited).toHaveLength(1);
    } finally {
      await fresh.close();
    }
  });
});
