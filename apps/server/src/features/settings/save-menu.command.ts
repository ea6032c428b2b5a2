import type { MenuConfig, MenuConfigBody, SessionUser } from '@comanda/contract';
import { mutate } from '../../http/transaction.ts';
import { audit } from '../../http/audit.ts';
import { getMenuConfig, writeConfig } from '../../model/config-store.ts';
import type { WriteContext } from '../../http/request-context.ts';

/** The admin's order of categories in the picker (a bar puts drinks first). */
export function saveMenuConfig(ctx: WriteContext, user: SessionUser, body: MenuConfigBody): Promise<MenuConfig> {
  return mutate(ctx, async (trx, emit) => {
    const now = ctx.clock.now();
    const before = await getMenuConfig(trx);
    await writeConfig(trx, 'menu', { categoryOrder: body.categoryOrder }, now);
    await audit(trx, now, {
      actor: { id: user.id, displayName: user.displayName },
      action: 'config.menu.update',
      entity: 'config',
      entityId: 'menu',
      data: { before: before.categoryOrder, after: body.categoryOrder },
    });
    emit({ topic: 'config', type: 'config.updated', id: 'menu', version: now });
    return getMenuConfig(trx);
  });
}
