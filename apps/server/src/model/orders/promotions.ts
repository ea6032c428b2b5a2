import type { ActivePromotion, Promotion } from '@comanda/contract';
import { cents, promotionFor, promotionKindLabel, promotionParts, promotionUnitPrice } from '@comanda/domain';
import type { PromotionsTable } from '../../db/schema.ts';
import type { AppContext } from '../../http/context.ts';
import type { Trx } from '../../http/transaction.ts';
import { audit } from '../../http/audit.ts';
import { newId } from '../../http/ids.ts';
import { getGeneralConfig } from '../config-store.ts';
import { readModifiers } from '../modifiers/modifier-store.ts';

/**
 * Promotions (happy hour), docs/decisions/0028-promotions.md. The server prices every item: an
 * item just inserted at the list price is re-priced here by the one promotion active now in the
 * business time zone (packages/domain promotions.ts). Percent off and fixed price change the
 * row's unit price; NxM leaves the paid units at list price and puts the free ones on a row of
 * their own at $0. Either way each row stays unit price × quantity, so subtotals, moves, splits,
 * voids, rollups and tickets stay exact without knowing about promotions.
 */

type Row = Pick<
  PromotionsTable,
  | 'id'
  | 'name'
  | 'kind'
  | 'percent_bps'
  | 'fixed_price'
  | 'buy'
  | 'pay'
  | 'days'
  | 'start_minute'
  | 'end_minute'
  | 'product_ids'
  | 'categories'
  | 'active'
  | 'created_at'
  | 'updated_at'
>;

const nullableNumber = (v: number | string | null): number | null => (v === null ? null : Number(v));

export function promotionRule(row: Row): Promotion {
  return {
    id: row.id,
    name: row.name,
    kind: row.kind,
    percentBps: nullableNumber(row.percent_bps),
    fixedPrice: row.fixed_price === null ? null : cents(Number(row.fixed_price)),
    buy: nullableNumber(row.buy),
    pay: nullableNumber(row.pay),
    days: JSON.parse(row.days) as number[],
    startMinute: Number(row.start_minute),
    endMinute: Number(row.end_minute),
    productIds: JSON.parse(row.product_ids) as string[],
    categories: JSON.parse(row.categories) as string[],
    active: Number(row.active) === 1,
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
  };
}

export function presentPromotion(row: Row): Promotion {
  return promotionRule(row);
}

export async function listPromotionRules(db: Trx, onlyActive = false): Promise<Promotion[]> {
  let query = db.selectFrom('promotions').selectAll().orderBy('created_at').orderBy('id');
  if (onlyActive) query = query.where('active', '=', 1);
  return (await query.execute()).map(promotionRule);
}

export async function businessTimezone(ctx: AppContext, db: Trx): Promise<string> {
  return (await getGeneralConfig(db, ctx.config.BUSINESS_TIMEZONE)).timezone;
}

/**
 * Re-prices a row just inserted at list price by the promotion active now, if any. Returns the ids
 * of the rows the add became (the row itself, and for NxM perhaps a free row), for the comanda.
 */
export async function applyPromotion(
  ctx: AppContext,
  trx: Trx,
  itemId: string,
  actor: { id: string; displayName: string },
  /** How many promotions are active, when the caller read it in this transaction already: none, no read. */
  activeCount?: number,
): Promise<string[]> {
  if (activeCount === 0) return [itemId];
  const rules = await listPromotionRules(trx, true);
  if (rules.length === 0) return [itemId];
  const item = await trx.selectFrom('order_items').selectAll().where('id', '=', itemId).executeTakeFirstOrThrow();
  const now = ctx.clock.now();
  const rule = promotionFor(rules, { id: item.product_id, category: item.category }, new Date(now), await businessTimezone(ctx, trx));
  if (!rule) return [itemId];
  const listPrice = cents(Number(item.product_price));
  const quantity = Number(item.quantity);
  const onOrder = { paid: 0, free: 0 };
  if (rule.kind === 'nxm') {
    const rows = await trx
      .selectFrom('order_items')
      .select(['product_price', 'list_price', 'quantity'])
      .where('order_id', '=', item.order_id)
      .where('product_id', '=', item.product_id)
      .where('promotion_id', '=', rule.id)
      .where('is_deleted', '=', 0)
      .where('id', '!=', itemId)
      .execute();
    for (const r of rows) {
      // A free unit is charged less than its list price (only its options, if any).
      if (Number(r.product_price) < Number(r.list_price ?? r.product_price)) onOrder.free += Number(r.quantity);
      else onOrder.paid += Number(r.quantity);
    }
  }
  // The promotion prices the product; chosen options are charged on top of it.
  const optionsPrice = readModifiers(item.modifiers).reduce((sum, m) => sum + m.priceDelta, 0);
  const parts = promotionParts(rule, cents(listPrice - optionsPrice), quantity, onOrder).map((part) => ({
    ...part,
    unitPrice: cents(part.unitPrice + optionsPrice),
  }));
  const promo = { list_price: listPrice, promotion_id: rule.id, promotion_name: rule.name };
  const ids: string[] = [];
  for (const [i, part] of parts.entries()) {
    if (i === 0) {
      await trx
        .updateTable('order_items')
        .set({ ...promo, product_price: part.unitPrice, quantity: part.quantity })
        .where('id', '=', itemId)
        .execute();
      ids.push(itemId);
    } else {
      const id = newId();
      await trx
        .insertInto('order_items')
        .values({ ...item, ...promo, id, product_price: part.unitPrice, quantity: part.quantity })
        .execute();
      ids.push(id);
    }
  }
  await audit(trx, now, {
    actor,
    action: 'order.item-promotion',
    entity: 'order',
    entityId: item.order_id,
    data: {
      itemIds: ids,
      promotionId: rule.id,
      promotionName: rule.name,
      listPrice,
      parts: parts.map((p) => ({ price: p.unitPrice, quantity: p.quantity })),
    },
  });
  return ids;
}

/** For the picker: each available product a promotion prices now, with its label and unit price. */
export async function activePromotions(ctx: AppContext, db: Trx): Promise<ActivePromotion[]> {
  const rules = await listPromotionRules(db, true);
  if (rules.length === 0) return [];
  const tz = await businessTimezone(ctx, db);
  const at = new Date(ctx.clock.now());
  const products = await db.selectFrom('products').select(['id', 'category', 'price']).where('available', '=', 1).execute();
  const out: ActivePromotion[] = [];
  for (const p of products) {
    const rule = promotionFor(rules, p, at, tz);
    if (!rule) continue;
    const listPrice = cents(Number(p.price));
    out.push({
      productId: p.id,
      promotionId: rule.id,
      name: rule.name,
      kind: rule.kind,
      label: promotionKindLabel(rule),
      listPrice,
      price: promotionUnitPrice(rule, listPrice),
    });
  }
  return out;
}
