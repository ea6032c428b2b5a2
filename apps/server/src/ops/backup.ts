import { existsSync, renameSync, rmSync, statSync } from 'node:fs';
import SQLite from 'better-sqlite3';
import { privateFile } from '../db/private-files.ts';

/**
 * SQLite backups: SQLite's online backup API (better-sqlite3 `db.backup()`), never a file copy
 * of a live database. The copy is taken through its own read-only connection, so it works from
 * the `backup` command while the server runs and writes (WAL: the copy never blocks writers),
 * and from the server's own schedule.
 */

/** The tables whose row counts a backup report shows (the business history). */
export const MAIN_TABLES = ['users', 'tables', 'products', 'orders', 'order_items', 'payments', 'card_payments', 'audit_log'] as const;

const TABLE_LABELS: Record<(typeof MAIN_TABLES)[number], string> = {
  users: 'usuarios',
  tables: 'mesas',
  products: 'productos',
  orders: 'órdenes',
  order_items: 'artículos de órdenes',
  payments: 'pagos',
  card_payments: 'cobros con tarjeta',
  audit_log: 'registros de auditoría',
};

export interface DatabaseFileReport {
  file: string;
  bytes: number;
  /** PRAGMA integrity_check rows: ['ok'] when the file is sound. */
  integrity: string[];
  /** Names in the kysely_migration table (empty: not a Comanda database). */
  migrations: string[];
  counts: Partial<Record<(typeof MAIN_TABLES)[number], number>>;
  /** Closed orders (status pagado) and their money, a quick sense of what the file holds. */
  paidOrders: number;
  paidTotal: number;
  lastOrderAt: number | null;
}

export function isSound(report: DatabaseFileReport): boolean {
  return report.integrity.length === 1 && report.integrity[0] === 'ok';
}

export function isComanda(report: DatabaseFileReport): boolean {
  return report.migrations.includes('0001-initial') && MAIN_TABLES.every((t) => report.counts[t] !== undefined);
}

/** The file of a `sqlite:` DATABASE_URL, or null for PostgreSQL. */
export function sqliteFileOf(url: string): string | null {
  return url.startsWith('sqlite:') ? url.slice('sqlite:'.length) : null;
}

/** Opens a database file (never creating one) and reports integrity, migrations and row counts. */
export function inspectDatabaseFile(file: string, { readonly = true }: { readonly?: boolean } = {}): DatabaseFileReport {
  const db = new SQLite(file, { readonly, fileMustExist: true });
  try {
    db.pragma('busy_timeout = 5000');
    const integrity = (db.pragma('integrity_check') as { integrity_check: string }[]).map((r) => r.integrity_check);
    const tables = new Set(
      (db.prepare(`select name from sqlite_master where type = 'table'`).all() as { name: string }[]).map((r) => r.name),
    );
    const migrations = tables.has('kysely_migration')
      ? (db.prepare('select name from kysely_migration order by name').all() as { name: string }[]).map((r) => r.name)
      : [];
    const counts: DatabaseFileReport['counts'] = {};
    for (const table of MAIN_TABLES) {
      if (tables.has(table)) counts[table] = (db.prepare(`select count(*) as n from "${table}"`).get() as { n: number }).n;
    }
    let paidOrders = 0;
    let paidTotal = 0;
    let lastOrderAt: number | null = null;
    if (tables.has('orders')) {
      const paid = db.prepare(`select count(*) as n, coalesce(sum(total), 0) as total from orders where status = 'pagado'`).get() as {
        n: number;
        total: number;
      };
      paidOrders = paid.n;
      paidTotal = paid.total;
      lastOrderAt = (db.prepare('select max(created_at) as at from orders').get() as { at: number | null }).at;
    }
    return { file, bytes: statSync(file).size, integrity, migrations, counts, paidOrders, paidTotal, lastOrderAt };
  } finally {
    db.close();
  }
}

/**
 * Copies a live SQLite database to `dest` with the online backup API, verifies the copy
 * (integrity_check, a Comanda migration table) and only then gives it its final name.
 */
export async function backupSqliteFile(source: string, dest: string): Promise<DatabaseFileReport> {
  if (existsSync(dest)) throw new Error(`Ya existe ${dest}; elige otro nombre para el respaldo.`);
  if (!existsSync(source)) throw new Error(`No existe la base de datos ${source}.`);
  const partial = `${dest}.partial`;
  rmSync(partial, { force: true });
  privateFile(partial); // owner-only whatever the umask: a backup holds everything the database does
  const db = new SQLite(source, { readonly: true, fileMustExist: true });
  try {
    db.pragma('busy_timeout = 5000');
    // All pages in one step: one read snapshot, so writes by the server (another connection)
    // cannot restart the copy over and over; in WAL mode the server keeps writing meanwhile.
    await db.backup(partial, { progress: ({ totalPages }) => Math.max(1000, totalPages) });
  } catch (error) {
    rmSync(partial, { force: true });
    throw error;
  } finally {
    db.close();
  }
  try {
    // A backup is one self-contained file (no -wal beside it), readable anywhere.
    const copy = new SQLite(partial, { fileMustExist: true });
    copy.pragma('journal_mode = DELETE');
    copy.close();
    const report = inspectDatabaseFile(partial);
    if (!isSound(report)) throw new Error(`El respaldo no pasó la verificación de integridad: ${report.integrity.slice(0, 5).join('; ')}`);
    if (!isComanda(report)) throw new Error('El respaldo no contiene una base de datos de Comanda.');
    renameSync(partial, dest);
    return { ...report, file: dest };
  } catch (error) {
    rmSync(partial, { force: true });
    throw error;
  }
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

function pesos(centavos: number): string {
  return `$${(centavos / 100).toLocaleString('es-MX', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
}

/** What a database file holds, in Spanish, for the `backup` and `restore` commands. */
export function describeReport(report: DatabaseFileReport): string {
  const lines = [
    `Archivo: ${report.file} (${formatBytes(report.bytes)})`,
    `Integridad: ${isSound(report) ? 'correcta' : `con errores (${report.integrity.slice(0, 3).join('; ')})`}`,
    `Versión del esquema: ${report.migrations.at(-1) ?? 'sin migraciones'} (${report.migrations.length} migraciones)`,
    'Contenido:',
    ...MAIN_TABLES.filter((t) => report.counts[t] !== undefined).map((t) => `  ${TABLE_LABELS[t]}: ${report.counts[t]}`),
    `  órdenes pagadas: ${report.paidOrders} por ${pesos(report.paidTotal)}`,
  ];
  if (report.lastOrderAt) lines.push(`  última orden: ${new Date(report.lastOrderAt).toISOString()}`);
  return lines.join('\n');
}
