import { createInterface } from 'node:readline/promises';
import { isValidPin } from '@comanda/domain';
import { loadConfig } from './config.ts';
import { createServer } from './server.ts';
import { hashPassword, MIN_PASSWORD_LENGTH } from './auth/password.ts';
import { newId } from './http/ids.ts';
import { transact } from './db/transact.ts';
import { audit } from './http/audit.ts';
import { seedTables } from './seed/seed.ts';
import { resolve } from 'node:path';
import { backupSqliteFile, describeReport, sqliteFileOf } from './ops/backup.ts';
import { restoreSqlite } from './ops/restore.ts';
import { connect } from './db/connect.ts';
import { migrateToLatest } from './db/migrate.ts';
import { reportDataSteps } from './model/reports/rollup-backfill.ts';
import { forgetPins } from './auth/pin-key.ts';

const USAGE = `Uso:
  npm run pos -- create-admin --email correo@negocio.mx --name "Nombre" [--pin 1234] [--tables 10]
  npm run pos -- backup --to /ruta/respaldo.db
  npm run pos -- restore --from /ruta/respaldo.db
  npm run pos -- forget-pins   (solo si se perdió DATA_DIR/pin.key: borra todos los PIN)
La contraseña se lee de COMANDA_ADMIN_PASSWORD o se pide en la terminal (nunca como argumento).`;

function arg(args: string[], name: string): string | undefined {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : undefined;
}

async function askPassword(): Promise<string> {
  const fromEnv = process.env.COMANDA_ADMIN_PASSWORD;
  if (fromEnv) return fromEnv;
  if (!process.stdin.isTTY) throw new Error('Define COMANDA_ADMIN_PASSWORD o ejecuta el comando en una terminal.');
  const rl = createInterface({ input: process.stdin, output: process.stdout });
  const password = await rl.question('Contraseña del administrador: ');
  rl.close();
  return password;
}

async function createAdmin(args: string[]): Promise<void> {
  const email = arg(args, 'email')?.trim().toLowerCase();
  const name = arg(args, 'name')?.trim();
  const pin = arg(args, 'pin');
  const tables = Number(arg(args, 'tables') ?? '0');
  if (!email || !name || !/^[^@\s]+@[^@\s]+$/.test(email)) throw new Error(USAGE);
  if (pin !== undefined && !isValidPin(pin)) throw new Error('El PIN debe tener 4 dígitos.');
  const password = await askPassword();
  if (password.length < MIN_PASSWORD_LENGTH) throw new Error(`La contraseña debe tener al menos ${MIN_PASSWORD_LENGTH} caracteres.`);
  const config = { ...loadConfig(), DEMO_DATA: 'off' as const };
  const server = await createServer({ config, log: () => undefined });
  try {
    const now = server.ctx.clock.now();
    const id = newId();
    await transact(server.ctx.db, async (trx) => {
      await trx
        .insertInto('users')
        .values({
          id,
          email,
          display_name: name,
          role: 'admin',
          password_hash: await hashPassword(password),
          pin_hash: pin ? server.ctx.pins.hash(pin) : null,
          active: 1,
          created_at: now,
          updated_at: now,
        })
        .execute();
      await audit(trx, now, { actor: null, action: 'user.create_admin_cli', entity: 'user', entityId: id, data: { email } });
    });
    if (tables > 0) await seedTables(server.ctx, Math.min(tables, 200));
    console.log(`Administrador ${email} creado.`);
  } finally {
    await server.close();
  }
}

const PG_BACKUP = `La base de datos es PostgreSQL: respáldala con pg_dump y restáurala con pg_restore, por ejemplo:
  pg_dump --format=custom --file=comanda.dump "$DATABASE_URL"
  pg_restore --clean --if-exists --no-owner --dbname="$DATABASE_URL" comanda.dump
(detalles en docs/install.md).`;

/** A consistent copy of the live SQLite database (online backup API), verified, and what it holds. */
async function backup(args: string[]): Promise<void> {
  const to = arg(args, 'to');
  if (!to) throw new Error(USAGE);
  const config = loadConfig();
  const source = sqliteFileOf(config.DATABASE_URL);
  if (!source) throw new Error(PG_BACKUP);
  const report = await backupSqliteFile(source, resolve(to));
  console.log(`Respaldo creado y verificado.\n${describeReport(report)}`);
}

/** Puts a backup in place of the database (the server must be stopped); the old one is kept aside. */
async function restore(args: string[]): Promise<void> {
  const from = arg(args, 'from');
  if (!from) throw new Error(USAGE);
  const config = loadConfig();
  const dbFile = sqliteFileOf(config.DATABASE_URL);
  if (!dbFile) throw new Error(PG_BACKUP);
  const result = restoreSqlite({ from: resolve(from), dbFile: resolve(dbFile), dataDir: config.DATA_DIR, now: Date.now() });
  console.log(
    [
      'Respaldo restaurado.',
      describeReport(result.report),
      result.replacedAs ? `La base de datos anterior se guardó en ${result.replacedAs}` : 'No había una base de datos anterior.',
      'Ya puedes iniciar el servidor.',
    ].join('\n'),
  );
}

/** The PIN key is lost (a restore on a new machine without pin.key): clear every PIN so the server can start. */
async function forgetPinsCommand(): Promise<void> {
  const config = loadConfig();
  const db = connect(config.DATABASE_URL);
  try {
    await migrateToLatest(db, reportDataSteps);
    const count = await forgetPins(db, Date.now());
    console.log(`Se borraron los PIN de ${count} usuarios. Inicia el servidor; el administrador asigna PIN nuevos en Gestión de Usuarios.`);
  } finally {
    await db.close();
  }
}

const COMMANDS: Record<string, (args: string[]) => Promise<void>> = {
  'create-admin': createAdmin,
  backup,
  restore,
  'forget-pins': forgetPinsCommand,
};
const [command, ...rest] = process.argv.slice(2);
const handler = command ? COMMANDS[command] : undefined;
const run = handler ? handler(rest) : Promise.reject(new Error(USAGE));
run.catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
