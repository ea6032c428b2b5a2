import type { Promotion, PromotionBody, SessionUser } from '@comanda/contract';
import { formatMinute, promotionsConflict } from '@comanda/domain';
import type { Trx } from '../../http/transaction.ts';
import { mutate } from '../../http/transaction.ts';
import { audit } from '../../http/audit.ts';
import { badRequest, conflict, notFound } from '../../http/errors.ts';
import { newId } from '../../http/ids.ts';
import { MESSAGES } from '../../http/messages.ts';
import { listPromotionRules, presentPromotion } from '../../model/orders/promotions.ts';
import type { WriteContext } from '../../http/request-context.ts';

/** Only the fields of the body the kind uses are kept, so a stored rule never carries stale ones. */
function columnsOf(body: PromotionBody) {
  return {
    name: body.name,
    kind: body.kind,
    percent_bps: body.kind === 'percent' ? body.percentBps : null,
    fixed_price: body.kind === 'fixed' ? body.fixedPrice : null,
    buy: body.kind === 'nxm' ? body.buy : null,
    pay: body.kind === 'nxm' ? body.pay : null,
    days: JSON.stringify([...body.days].sort()),
    start_minute: body.startMinute,
    end_minute: body.endMinute,
    product_ids: JSON.stringify([...new Set(body.productIds)]),
    categories: JSON.stringify([...new Set(body.categories)]),
    active: body.active ? 1 : 0,
  };
}

/**
 * The server's own checks (the contract checks the shape): the products exist, and an active rule
 * does not meet another active one on a product they both reach: the same product or category,
 * or a product and its category (decision 0028).
 */
async function assertValid(trx: Trx, body: PromotionBody, selfId: string | null): Promise<void> {
  if (body.productIds.length > 0) {
    const found = await trx
      .selectFrom('products')
      .select('id')
      .where('id', 'in', [...new Set(body.productIds)])
      .execute();
    if (found.length !== new Set(body.productIds).size) throw badRequest(MESSAGES.promotion.unknownProduct, 'validation');
  }
  if (!body.active) return;
  const others = (await listPromotionRules(trx, true)).filter((other) => other.id !== selfId);
  const named = [...new Set([...body.productIds, ...others.flatMap((o) => o.productIds)])];
  const categories = new Map(
    named.length === 0
      ? []
      : (await trx.selectFrom('products').select(['id', 'category']).where('id', 'in', named).execute()).map((p) => [p.id, p.category]),
  );
  for (const other of others) {
    if (promotionsConflict(body, other, (id) => categories.get(id))) {
      throw conflict(
        MESSAGES.promotion.overlaps(other.name, `${formatMinute(other.startMinute)}–${formatMinute(other.endMinute)}`),
        'promotion_overlap',
      );
    }
  }
}

async function requirePromotion(trx: Trx, id: string) {
  const row = await trx.selectFrom('promotions').selectAll().where('id', '=', id).executeTakeFirst();
  if (!row) throw notFound(MESSAGES.promotion.notFound);
  return row;
}

export function createPromotion(ctx: WriteContext, user: SessionUser, body: PromotionBody): Promise<Promotion> {
  return mutate(ctx, async (trx, emit) => {
    await assertValid(trx, body, null);
    const now = ctx.clock.now();
    const row = { id: newId(), ...columnsOf(body), created_at: now, updated_at: now };
    await trx.insertInto('promotions').values(row).execute();
    await audit(trx, now, { actor: user, action: 'promotion.create', entity: 'promotion', entityId: row.id, data: { ...body } });
    emit({ topic: 'products', type: 'promotion.changed', id: row.id, version: now });
    return presentPromotion(row);
  });
}

export function updatePromotion(ctx: WriteContext, user: SessionUser, id: string, body: PromotionBody): Promise<Promotion> {
  return mutate(ctx, async (trx, emit) => {
    const before = await requirePromotion(trx, id);
    await assertValid(trx, body, id);
    const now = ctx.clock.now();
    const changes = { ...columnsOf(body), updated_at: now };
    await trx.updateTable('promotions').set(changes).where('id', '=', id).execute();
    await audit(trx, now, {
      actor: user,
      action: 'promotion.update',
      entity: 'promotion',
      entityId: id,
      data: { before: presentPromotion(before), after: { ...body } },
    });
    emit({ topic: 'products', type: 'promotion.changed', id, version: now });
    return presentPromotion({ ...before, ...changes });
  });
}

/** Items already priced keep their promotion's name; the rule itself goes. */
export function deletePromotion(ctx: WriteContext, user: SessionUser, id: string): Promise<void> {
  return mutate(ctx, async (trx, emit) => {
    const before = await requirePromotion(trx, id);
    const now = ctx.clock.now();
    await trx.deleteFrom('promotions').where('id', '=', id).execute();
    await audit(trx, now, { actor: user, action: 'promotion.delete', entity: 'promotion', entityId: id, data: presentPromotion(before) });
    emit({ topic: 'products', type: 'promotion.changed', id, version: now });
  });
}
