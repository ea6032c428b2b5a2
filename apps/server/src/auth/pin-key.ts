import { createHmac, randomBytes } from 'node:crypto';
import { existsSync, openSync, readFileSync, closeSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError } from '../config.ts';
import type { Db } from '../db/connect.ts';
import { PRIVATE_FILE, privateDir, restrictMode } from '../db/private-files.ts';
import { transact } from '../db/transact.ts';
import { audit } from '../http/audit.ts';
import { readConfig } from '../model/config-store.ts';

/**
 * The key of the PINs' HMAC (auth/pin.ts) lives outside the database, so that the database file
 * and every backup of it hold no way to test a PIN: PIN_SECRET when set, otherwise DATA_DIR/pin.key
 * (64 hex characters, mode 0600), made at the first start. The database keeps only a check of the
 * key (an HMAC of a fixed text under it), so a process started with another key refuses to start
 * instead of silently rejecting every PIN. Installs that kept the key in the database
 * (`config.secrets`) move it to pin.key at their next start and it is deleted from the database.
 */
export const PIN_KEY_FILE = 'pin.key';

/** The setting holding the key's check (never the key). */
export const PIN_KEY_CHECK = 'pin_key';

/** Where installs before pin.key kept the key. */
const LEGACY_SECRETS = 'secrets';

export class PinKeyError extends ConfigError {}

export function pinKeyCheck(key: string): string {
  return createHmac('sha256', key).update('comanda:pin-key-check').digest('hex');
}

const FORGET = `Si la llave se perdió, ejecuta «pos forget-pins» (borra los PIN; el administrador asigna nuevos) y vuelve a iniciar.`;

export function pinKeyMismatch(dataDir: string): string {
  return (
    `La llave de los PIN no coincide con la de esta base de datos: los PIN del personal no funcionarían. ` +
    `Copia el archivo ${PIN_KEY_FILE} original a ${join(dataDir, PIN_KEY_FILE)} (permisos 0600), o define PIN_SECRET ` +
    `con el mismo valor que los demás procesos. ${FORGET}`
  );
}

export function pinKeyMissing(dataDir: string): string {
  return (
    `Falta la llave de los PIN (${join(dataDir, PIN_KEY_FILE)}) de esta base de datos; no está en los respaldos. ` +
    `Copia ahí el archivo ${PIN_KEY_FILE} de la instalación original (permisos 0600), o define PIN_SECRET con su contenido. ${FORGET}`
  );
}

function readKeyFile(file: string): string | null {
  if (!existsSync(file)) return null;
  restrictMode(file, PRIVATE_FILE);
  const key = readFileSync(file, 'utf8').trim();
  if (key.length < 16) throw new PinKeyError(`${file} está vacío o dañado (se esperan 64 caracteres hexadecimales).`);
  return key;
}

/** Writes the key once; a process that lost the race reads the winner's. */
function writeKeyFile(file: string, key: string): string {
  let fd: number;
  try {
    fd = openSync(file, 'wx', PRIVATE_FILE);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return readKeyFile(file) ?? key;
    throw error;
  }
  try {
    writeSync(fd, `${key}\n`);
  } finally {
    closeSync(fd);
  }
  restrictMode(file, PRIVATE_FILE);
  return key;
}

/**
 * The PIN key for this process (see the module comment). Several processes on one PostgreSQL
 * need the same key: PIN_SECRET in each, or one shared DATA_DIR; one with another key stops.
 */
export async function loadPinKey(db: Db, opts: { envValue: string | undefined; dataDir: string; now: number }): Promise<string> {
  const legacy = (await readConfig<{ pin?: string }>(db.db, LEGACY_SECRETS))?.pin;
  const stored = await readConfig<{ check: string }>(db.db, PIN_KEY_CHECK);
  const file = join(opts.dataDir, PIN_KEY_FILE);
  let key = opts.envValue || readKeyFile(file);
  if (!key) {
    // A database that has a key elsewhere (another process's folder, the lost install) gets no new one.
    if (stored && legacy === undefined) throw new PinKeyError(pinKeyMissing(opts.dataDir));
    privateDir(opts.dataDir);
    key = writeKeyFile(file, legacy ?? randomBytes(32).toString('hex'));
  }
  const check = pinKeyCheck(key);
  if (!stored)
    await db.db
      .insertInto('config')
      .values({ key: PIN_KEY_CHECK, value: JSON.stringify({ check }), updated_at: opts.now })
      .onConflict((oc) => oc.column('key').doNothing())
      .execute();
  const kept = stored ?? (await readConfig<{ check: string }>(db.db, PIN_KEY_CHECK));
  if (kept?.check !== check) throw new PinKeyError(pinKeyMismatch(opts.dataDir));
  // Only once the key in use is known to be the database's: the old copy in the database goes.
  if (legacy !== undefined) await db.db.deleteFrom('config').where('key', '=', LEGACY_SECRETS).execute();
  return key;
}

/**
 * For a database whose key is lost (`pos forget-pins`): every PIN is cleared and the key's check
 * removed, in one audited transaction, so the next start makes a new key; the admin sets new PINs.
 */
export async function forgetPins(db: Db, now: number): Promise<number> {
  return transact(db, async (trx) => {
    const cleared = await trx
      .updateTable('users')
      .set({ pin_hash: null, updated_at: now })
      .where('pin_hash', 'is not', null)
      .executeTakeFirst();
    await trx.deleteFrom('config').where('key', 'in', [PIN_KEY_CHECK, LEGACY_SECRETS]).execute();
    const count = Number(cleared.numUpdatedRows);
    await audit(trx, now, { actor: null, action: 'users.pins_forgotten_cli', entity: 'user', entityId: null, data: { count } });
    return count;
  });
}
