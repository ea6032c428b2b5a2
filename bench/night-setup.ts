/**
 * The Saturday-night benchmark's bar: a fresh database with the demo menu and staff, a floor of
 * 100 tables (plus the bar, table 0, for tabs), 40 waiters, two kitchen and two bar boards and
 * two admins, each with a password and a PIN of its own. Written once in this process (as the
 * `create-admin` command does), before the measured server processes start.
 */
import { loadConfig } from '../apps/server/src/config.ts';
import { createServer } from '../apps/server/src/server.ts';
import { seedDemo, seedTables } from '../apps/server/src/seed/seed.ts';
import { hashPassword } from '../apps/server/src/auth/password.ts';
import { newId } from '../apps/server/src/http/ids.ts';
import { DEMO_PASSWORD } from './lib.ts';

export const NIGHT_PIN_SECRET = 'bench-night-pin-secret-0123456789';

export interface NightStaff {
  email: string;
  role: 'admin' | 'waiter' | 'kitchen' | 'barra';
  pin: string;
}

/** The demo's five accounts (admin 1234, waiters 1111 and 2222, kitchen 3333, bar 4444) plus these. */
export function nightStaff(waiters: number): NightStaff[] {
  const staff: NightStaff[] = [
    { email: 'admin@comanda.mx', role: 'admin', pin: '1234' },
    { email: 'gerente@comanda.mx', role: 'admin', pin: '1235' },
    { email: 'cocina@comanda.mx', role: 'kitchen', pin: '3333' },
    { email: 'cocina2@comanda.mx', role: 'kitchen', pin: '3334' },
    { email: 'barra@comanda.mx', role: 'barra', pin: '4444' },
    { email: 'barra2@comanda.mx', role: 'barra', pin: '4445' },
    { email: 'mesero@comanda.mx', role: 'waiter', pin: '1111' },
    { email: 'mesera@comanda.mx', role: 'waiter', pin: '2222' },
  ];
  for (let i = 3; i <= waiters; i++)
    staff.push({ email: `mesero${String(i).padStart(2, '0')}@comanda.mx`, role: 'waiter', pin: String(5000 + i) });
  return staff;
}

const DEMO_EMAILS = new Set(['admin@comanda.mx', 'cocina@comanda.mx', 'barra@comanda.mx', 'mesero@comanda.mx', 'mesera@comanda.mx']);

/** Migrates and fills the database at `url` (SQLite or PostgreSQL); closes it again. */
export async function prepareNightDatabase(url: string, dataDir: string, tables: number, staff: NightStaff[]): Promise<void> {
  const config = loadConfig({
    DATABASE_URL: url,
    DATA_DIR: dataDir,
    PIN_SECRET: NIGHT_PIN_SECRET,
    LOG_LEVEL: 'silent',
    DEMO_DATA: 'off',
    BACKUP_EVERY: 'off',
  });
  const server = await createServer({ config, log: () => undefined });
  try {
    await seedDemo(server.ctx);
    await seedTables(server.ctx, tables);
    const now = server.ctx.clock.now();
    const passwordHash = await hashPassword(DEMO_PASSWORD);
    const extra = staff.filter((s) => !DEMO_EMAILS.has(s.email));
    await server.ctx.db.db
      .insertInto('users')
      .values(
        extra.map((s) => ({
          id: newId(),
          email: s.email,
          display_name: s.email.split('@')[0]!.replace(/^./, (c) => c.toUpperCase()),
          role: s.role,
          password_hash: passwordHash,
          pin_hash: server.ctx.pins.hash(s.pin),
          active: 1,
          created_at: now,
          updated_at: now,
        })),
      )
      .execute();
  } finally {
    await server.close();
  }
}
