import { autoAgotadoStep, makeableUnits, type AutoAgotadoState, type RecipeAmount } from '@comanda/domain';
import type { AppContext } from '../../http/context.ts';
import { mutate } from '../../http/transaction.ts';
import { audit } from '../../http/audit.ts';
import { withoutKey } from '../../http/request-context.ts';
import { SALES_WAREHOUSE } from './sales-posting.ts';

/**
 * Products the owner opted in become agotado when the barra's stock cannot make one more of their
 * recipe, and available again when it can (after a purchase, a transfer or a count): the board's
 * and the picker's agotado, its audit and its live event, exactly as the switch does. A sale
 * already added is never undone; without opted-in products it costs one read and no transaction.
 */
export async function refreshAutoAgotado(ctx: AppContext): Promise<void> {
  const any = await ctx.db.db.selectFrom('product_auto_agotado').select('product_id').limit(1).executeTakeFirst();
  if (!any) return;
  await mutate(withoutKey(ctx), async (trx, emit) => {
    const opted = await trx
      .selectFrom('product_auto_agotado as a')
      .innerJoin('products as p', 'p.id', 'a.product_id')
      .select(['a.product_id', 'a.state', 'p.available', 'p.name'])
      .execute();
    if (opted.length === 0) return;
    const ids = opted.map((o) => o.product_id);
    const recipes = new Map<string, RecipeAmount[]>();
    for (const r of await trx.selectFrom('product_recipes').selectAll().where('product_id', 'in', ids).execute()) {
      const list = recipes.get(r.product_id) ?? [];
      list.push({ insumoId: r.insumo_id, amount: Number(r.amount) });
      recipes.set(r.product_id, list);
    }
    const insumos = [...new Set([...recipes.values()].flat().map((r) => r.insumoId))];
    const stock = new Map<string, number>();
    if (insumos.length > 0) {
      const rows = await trx
        .selectFrom('stock_movements')
        .select(['insumo_id', (eb) => eb.fn.sum<number>('qty').as('qty')])
        .where('warehouse_id', '=', SALES_WAREHOUSE)
        .where('insumo_id', 'in', insumos)
        .groupBy('insumo_id')
        .execute();
      for (const r of rows) stock.set(r.insumo_id, Number(r.qty));
    }
    const now = ctx.clock.now();
    for (const o of opted) {
      const recipe = recipes.get(o.product_id) ?? [];
      const makeable = makeableUnits(recipe, (id) => stock.get(id) ?? 0);
      const state = Number(o.state) as AutoAgotadoState;
      const step = autoAgotadoStep(makeable, o.available === 1, state);
      if (step.state !== state) {
        // Conditional on what was read: a concurrent refresh or switch makes this one a no-op.
        const moved = await trx
          .updateTable('product_auto_agotado')
          .set({ state: step.state })
          .where('product_id', '=', o.product_id)
          .where('state', '=', state)
          .executeTakeFirst();
        if (Number(moved.numUpdatedRows) !== 1) continue;
      }
      if (step.available === null) continue;
      const changed = await trx
        .updateTable('products')
        .set({ available: step.available ? 1 : 0, updated_at: now })
        .where('id', '=', o.product_id)
        .where('available', '=', step.available ? 0 : 1)
        .executeTakeFirst();
      if (Number(changed.numUpdatedRows) !== 1) continue;
      await audit(trx, now, {
        actor: null,
        action: 'product.availability',
        entity: 'product',
        entityId: o.product_id,
        data: { name: o.name, available: step.available, byInventory: true, makeable: Number.isFinite(makeable) ? makeable : null },
      });
      emit({ topic: 'products', type: 'product.updated', id: o.product_id, version: now });
    }
  });
}
