import type { GeneralConfig, MenuConfig } from '@comanda/contract';
import { CATEGORIES, DEFAULT_SHIFT, isCategoryOrder } from '@comanda/domain';
import type { Trx } from '../http/transaction.ts';

/** The spec's fallbacks when the business has not configured itself yet. */
export const DEFAULT_GENERAL: GeneralConfig = {
  name: '',
  logoUrl: '',
  address: 'Calle Principal #123, Col. Centro',
  phone: '(55) 1234-5678',
  timezone: 'America/Mexico_City',
  shiftStartHour: DEFAULT_SHIFT.startHour,
  shiftEndHour: DEFAULT_SHIFT.endHour,
};

/**
 * What a transaction has read of each key (its stored text, undefined for none), so a setting is
 * read once per transaction: a close needs the time zone for its reports and the business's name
 * for its receipt, each a round trip on PostgreSQL. Keyed by the transaction object, which lives
 * for one mutation: a rolled-back one takes its memory with it.
 */
const readIn = new WeakMap<object, Map<string, Promise<string | undefined>>>();

function memoOf(db: Trx): Map<string, Promise<string | undefined>> | undefined {
  if (!db.isTransaction) return undefined;
  let memo = readIn.get(db);
  if (!memo) readIn.set(db, (memo = new Map()));
  return memo;
}

/**
 * Settings one write often needs both of: a cash close reads the business's time zone for its
 * reports and, with no drawer session open, whether drawer control is on. Inside a transaction,
 * the first read of any setting reads these too, in the same statement (a round trip less on
 * PostgreSQL; the drawer store's key is 'drawer', drawer-store.ts).
 */
const READ_TOGETHER = ['general', 'drawer'] as const;

/** The keys a statement of a transaction may read with its own, for `rememberConfig`. */
export const CONFIG_READ_TOGETHER: readonly string[] = READ_TOGETHER;

/**
 * The settings of READ_TOGETHER as another statement of the transaction read them (a close reads
 * them with the order's rows on PostgreSQL): remembered as if readConfig had read them, a round trip
 * fewer. A key already read or written in the transaction keeps what it has.
 */
export function rememberConfig(db: Trx, rows: readonly { key: string; value: string }[]): void {
  const memo = memoOf(db);
  if (!memo) return;
  for (const key of READ_TOGETHER) {
    if (!memo.has(key)) memo.set(key, Promise.resolve(rows.find((row) => row.key === key)?.value));
  }
}

export async function readConfig<T>(db: Trx, key: string): Promise<T | null> {
  const memo = memoOf(db);
  let stored = memo?.get(key);
  if (!stored) {
    if (memo) {
      const keys = [...new Set([key, ...READ_TOGETHER])].filter((k) => !memo.has(k));
      const read = db.selectFrom('config').select(['key', 'value']).where('key', 'in', keys).execute();
      for (const k of keys) {
        const one = read.then((rows) => rows.find((row) => row.key === k)?.value);
        memo.set(k, one);
        // A failed read is not remembered.
        void one.catch(() => memo.delete(k));
      }
      stored = memo.get(key)!;
    } else {
      stored = db
        .selectFrom('config')
        .select('value')
        .where('key', '=', key)
        .executeTakeFirst()
        .then((row) => row?.value);
    }
  }
  const value = await stored;
  return value === undefined ? null : (JSON.parse(value) as T);
}

export async function writeConfig(db: Trx, key: string, value: unknown, now: number): Promise<void> {
  const json = JSON.stringify(value);
  await db
    .insertInto('config')
    .values({ key, value: json, updated_at: now })
    .onConflict((oc) => oc.column('key').doUpdateSet({ value: json, updated_at: now }))
    .execute();
  memoOf(db)?.set(key, Promise.resolve(json));
}

export async function getGeneralConfig(db: Trx, fallbackTimezone?: string): Promise<GeneralConfig> {
  const stored = await readConfig<Partial<GeneralConfig>>(db, 'general');
  const base = fallbackTimezone ? { ...DEFAULT_GENERAL, timezone: fallbackTimezone } : DEFAULT_GENERAL;
  return { ...base, ...stored };
}

/** The picker's order of categories; the catalogue's own order until the admin sets one. */
export async function getMenuConfig(db: Trx): Promise<MenuConfig> {
  const stored = await readConfig<Partial<MenuConfig>>(db, 'menu');
  const order = stored?.categoryOrder;
  return { categoryOrder: Array.isArray(order) && isCategoryOrder(order) ? order : [...CATEGORIES] };
}
