import type { CardTerminal } from '@comanda/contract';
import type { AppContext } from '../../http/context.ts';
import { AppError, notFound } from '../../http/errors.ts';
import type { Trx } from '../../http/transaction.ts';
import { TERMINAL_MESSAGES } from '@comanda/domain';
import type { TerminalDevice } from '../../payments/mercadopago/provider.ts';
import { readConfig, writeConfig } from '../../model/config-store.ts';
import { cardGateway } from '../../model/card-payments/card-gateway.ts';

/** Stored as the spec's terminal configuration: document 'terminals' with an enabled map. */
export interface TerminalConfig {
  enabled: Record<string, boolean>;
  updatedAt: number;
}

const KEY = 'terminals';

export async function readEnabledMap(db: Trx): Promise<Record<string, boolean>> {
  return (await readConfig<TerminalConfig>(db, KEY))?.enabled ?? {};
}

/** Enabled unless explicitly false (SPEC §3). */
export const isEnabled = (map: Record<string, boolean>, id: string): boolean => map[id] !== false;

/** 'PAX_A910__SMARTPOS1234' reads as 'PAX A910 · SMARTPOS1234'. */
export function terminalName(id: string): string {
  const [model, serial] = id.split('__');
  return serial ? `${(model ?? '').replaceAll('_', ' ')} · ${serial}` : id;
}

export function presentTerminal(d: TerminalDevice, map: Record<string, boolean>): CardTerminal {
  return {
    id: d.id,
    name: terminalName(d.id),
    location: d.externalPosId ? `Caja ${d.externalPosId}` : null,
    storeId: d.storeId,
    posId: d.posId,
    externalId: d.externalPosId,
    operatingMode: d.operatingMode,
    enabled: isEnabled(map, d.id),
  };
}

/** The provider's terminals merged with the enabled map; a provider failure is a 502 with the spec's text. */
export async function listTerminals(ctx: AppContext, failMessage: string): Promise<CardTerminal[]> {
  let devices: TerminalDevice[];
  try {
    devices = await cardGateway(ctx).provider.listTerminals();
  } catch {
    throw new AppError(502, 'provider_unavailable', failMessage);
  }
  const map = await readEnabledMap(ctx.db.db);
  return devices.map((d) => presentTerminal(d, map));
}

/** Merges one flag into the map; the row is locked first so two toggles never lose each other. */
export async function setTerminalEnabled(trx: Trx, id: string, enabled: boolean, now: number): Promise<void> {
  await trx
    .insertInto('config')
    .values({ key: KEY, value: JSON.stringify({ enabled: {}, updatedAt: now }), updated_at: now })
    .onConflict((oc) => oc.column('key').doNothing())
    .execute();
  await trx.updateTable('config').set({ updated_at: now }).where('key', '=', KEY).execute();
  const map = await readEnabledMap(trx);
  await writeConfig(trx, KEY, { enabled: { ...map, [id]: enabled }, updatedAt: now } satisfies TerminalConfig, now);
}

export async function requireTerminal(ctx: AppContext, id: string, failMessage: string): Promise<CardTerminal> {
  const terminal = (await listTerminals(ctx, failMessage)).find((t) => t.id === id);
  if (!terminal) throw notFound(TERMINAL_MESSAGES.notFound);
  return terminal;
}
