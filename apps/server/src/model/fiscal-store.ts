import { DEFAULT_FISCAL, treatmentForRate, type FiscalSettings, type TaxTreatment } from '@comanda/domain';
import type { Trx } from '../http/transaction.ts';
import { readConfig } from './config-store.ts';

/** The business's fiscal data (config key 'fiscal'); the domain's defaults until the admin saves them. */
export async function getFiscalSettings(db: Trx): Promise<FiscalSettings> {
  const stored = await readConfig<Partial<FiscalSettings>>(db, 'fiscal');
  return { ...DEFAULT_FISCAL, ...stored };
}

/** A new product's treatment when the form does not say: the site's default IVA rate. */
export async function defaultTreatment(db: Trx): Promise<TaxTreatment> {
  return treatmentForRate((await getFiscalSettings(db)).defaultIvaRate);
}
