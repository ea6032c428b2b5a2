import { createInterface } from 'node:readline/promises';
import { isValidPin } from '@comanda/domain';
import { loadConfig } from './config.ts';
import { createServer } from './server.ts';
import { hashPassword, MIN_PASSWORD_LENGTH } from './auth/password.ts';
import { newId } from './http/ids.ts';
import { audit } from './http/audit.ts';
import { seedTables } from './seed/seed.ts';

const USAGE = `Uso:
  npm run pos -- create-admin --email correo@negocio.mx --name "Nombre" [--pin 1234] [--tables 10]
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
    await server.ctx.db.db.transaction().execute(async (trx) => {
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

const [command, ...rest] = process.argv.slice(2);
const run = command === 'create-admin' ? createAdmin(rest) : Promise.reject(new Error(USAGE));
run.catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
