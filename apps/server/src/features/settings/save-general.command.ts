import type { GeneralConfig, GeneralConfigBody, SessionUser } from '@comanda/contract';
import { mutate } from '../../http/transaction.ts';
import { audit } from '../../http/audit.ts';
import { getGeneralConfig, readConfig, writeConfig } from '../../model/config-store.ts';
import type { WriteContext } from '../../http/request-context.ts';

/** Merges the saved fields over what is stored, so fields a client did not send survive. */
export function saveGeneralConfig(ctx: WriteContext, user: SessionUser, body: GeneralConfigBody): Promise<GeneralConfig> {
  return mutate(ctx, async (trx, emit) => {
    const now = ctx.clock.now();
    const stored = (await readConfig<Partial<GeneralConfig>>(trx, 'general')) ?? {};
    const changes = Object.fromEntries(Object.entries(body).filter(([, v]) => v !== undefined));
    await writeConfig(trx, 'general', { ...stored, ...changes }, now);
    await audit(trx, now, {
      actor: { id: user.id, displayName: user.displayName },
      action: 'config.general.update',
      entity: 'config',
      entityId: 'general',
      data: { before: stored, changes },
    });
    emit({ topic: 'config', type: 'config.updated', id: 'general', version: now });
    return getGeneralConfig(trx, ctx.config.BUSINESS_TIMEZONE);
  });
}
