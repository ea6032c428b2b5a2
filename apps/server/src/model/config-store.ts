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

export async function readConfig<T>(db: Trx, key: string): Promise<T | null> {
  const row = await db.selectFrom('config').select('value').where('key', '=', key).executeTakeFirst();
  return row ? (JSON.parse(row.value) as T) : null;
}

export async function writeConfig(db: Trx, key: string, value: unknown, now: number): Promise<void> {
  const json = JSON.stringify(value);
  await db
    .insertInto('config')
    .values({ key, value: json, updated_at: now })
    .onConflict((oc) => oc.column('key').doUpdateSet({ value: json, updated_at: now }))
    .execute();
}

export async function getGeneralConfig(db: Trx, fallbackTimezone?: string): Promise<GeneralConfig> {
  const stored = await readConfig<Partial<GeneralConfig>>(db, 'general');
  const base = fallbackTimezone ? { ...DEFAULT_GENERAL, timezone: fallbackTimezone } : DEFAULT_GENERAL;
  return { ...base, ...stored };
}

/** The picker's order of categories (issue #17); the catalogue's own order until the admin sets one. */
export async function getMenuConfig(db: Trx): Promise<MenuConfig> {
  const stored = await readConfig<Partial<MenuConfig>>(db, 'menu');
  const order = stored?.categoryOrder;
  return { categoryOrder: Array.isArray(order) && isCategoryOrder(order) ? order : [...CATEGORIES] };
}
