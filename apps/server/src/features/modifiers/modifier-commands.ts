import type { ModifierGroup, ModifierGroupBody, SessionUser } from '@comanda/contract';
import type { Trx } from '../../http/transaction.ts';
import { mutate } from '../../http/transaction.ts';
import { audit } from '../../http/audit.ts';
import { badRequest, notFound } from '../../http/errors.ts';
import { newId } from '../../http/ids.ts';
import { MESSAGES } from '../../http/messages.ts';
import { listModifierGroups } from '../../model/modifiers/modifier-store.ts';
import type { WriteContext } from '../../http/request-context.ts';

const M = MESSAGES.modifiers;

async function requireGroup(trx: Trx, id: string): Promise<ModifierGroup> {
  const group = (await listModifierGroups(trx)).find((g) => g.id === id);
  if (!group) throw notFound(M.groupNotFound);
  return group;
}

/** Options keep their ids (an open picker's choice stays valid); new ones get one; missing ones go. */
async function writeOptions(trx: Trx, groupId: string, body: ModifierGroupBody, before: ModifierGroup | null): Promise<void> {
  const kept = new Set(before?.options.map((o) => o.id) ?? []);
  const sent = new Set(body.options.flatMap((o) => (o.id ? [o.id] : [])));
  for (const id of sent) if (!kept.has(id)) throw notFound(M.optionNotFound);
  const gone = [...kept].filter((id) => !sent.has(id));
  if (gone.length > 0) await trx.deleteFrom('modifier_options').where('id', 'in', gone).execute();
  for (const [position, o] of body.options.entries()) {
    const values = { name: o.name, price_delta: o.priceDelta, available: o.available ? 1 : 0, position };
    if (o.id) await trx.updateTable('modifier_options').set(values).where('id', '=', o.id).execute();
    else
      await trx
        .insertInto('modifier_options')
        .values({ id: newId(), group_id: groupId, ...values })
        .execute();
  }
}

async function writeLinks(trx: Trx, groupId: string, body: ModifierGroupBody): Promise<void> {
  await trx.deleteFrom('modifier_links').where('group_id', '=', groupId).execute();
  const productIds = [...new Set(body.productIds)];
  if (productIds.length > 0) {
    const found = await trx.selectFrom('products').select('id').where('id', 'in', productIds).execute();
    if (found.length !== productIds.length) throw badRequest(M.unknownProduct, 'validation');
  }
  const rows = [
    ...productIds.map((productId) => ({ id: newId(), group_id: groupId, product_id: productId, category: null })),
    ...[...new Set(body.categories)].map((category) => ({ id: newId(), group_id: groupId, product_id: null, category })),
  ];
  if (rows.length > 0) await trx.insertInto('modifier_links').values(rows).execute();
}

async function nextPosition(trx: Trx): Promise<number> {
  const row = await trx
    .selectFrom('modifier_groups')
    .select((eb) => eb.fn.max('position').as('last'))
    .executeTakeFirst();
  return row?.last === null || row?.last === undefined ? 0 : Number(row.last) + 1;
}

const summary = (g: ModifierGroup) => ({
  name: g.name,
  minSelect: g.minSelect,
  maxSelect: g.maxSelect,
  options: g.options.map((o) => ({ name: o.name, priceDelta: o.priceDelta, available: o.available })),
  productIds: g.productIds,
  categories: g.categories,
});

export function saveModifierGroup(
  ctx: WriteContext,
  user: SessionUser,
  id: string | null,
  body: ModifierGroupBody,
): Promise<ModifierGroup> {
  return mutate(ctx, async (trx, emit) => {
    const now = ctx.clock.now();
    const before = id ? await requireGroup(trx, id) : null;
    const groupId = id ?? newId();
    const position = body.position ?? before?.position ?? (await nextPosition(trx));
    const values = { name: body.name, min_select: body.minSelect, max_select: body.maxSelect, position, updated_at: now };
    if (before) await trx.updateTable('modifier_groups').set(values).where('id', '=', groupId).execute();
    else
      await trx
        .insertInto('modifier_groups')
        .values({ id: groupId, ...values, created_at: now })
        .execute();
    await writeOptions(trx, groupId, body, before);
    await writeLinks(trx, groupId, body);
    const after = await requireGroup(trx, groupId);
    // Option prices are money: the change is audited with both sides.
    await audit(trx, now, {
      actor: user,
      action: before ? 'modifiers.update' : 'modifiers.create',
      entity: 'modifier_group',
      entityId: groupId,
      data: before ? { before: summary(before), after: summary(after) } : summary(after),
    });
    emit({ topic: 'products', type: 'modifiers.updated', id: groupId, version: now });
    return after;
  });
}

export function deleteModifierGroup(ctx: WriteContext, user: SessionUser, id: string): Promise<void> {
  return mutate(ctx, async (trx, emit) => {
    const before = await requireGroup(trx, id);
    const now = ctx.clock.now();
    await trx.deleteFrom('modifier_links').where('group_id', '=', id).execute();
    await trx.deleteFrom('modifier_options').where('group_id', '=', id).execute();
    await trx.deleteFrom('modifier_groups').where('id', '=', id).execute();
    await audit(trx, now, { actor: user, action: 'modifiers.delete', entity: 'modifier_group', entityId: id, data: summary(before) });
    emit({ topic: 'products', type: 'modifiers.updated', id, version: now });
  });
}

/** The quick switch for one option ("se acabó el clamato"), without opening the group. */
export function setOptionAvailability(ctx: WriteContext, user: SessionUser, optionId: string, available: boolean): Promise<ModifierGroup> {
  return mutate(ctx, async (trx, emit) => {
    const option = await trx
      .selectFrom('modifier_options')
      .select(['id', 'group_id', 'name'])
      .where('id', '=', optionId)
      .executeTakeFirst();
    if (!option) throw notFound(M.optionNotFound);
    const now = ctx.clock.now();
    await trx
      .updateTable('modifier_options')
      .set({ available: available ? 1 : 0 })
      .where('id', '=', optionId)
      .execute();
    await trx.updateTable('modifier_groups').set({ updated_at: now }).where('id', '=', option.group_id).execute();
    await audit(trx, now, {
      actor: user,
      action: 'modifiers.option-availability',
      entity: 'modifier_group',
      entityId: option.group_id,
      data: { optionId, name: option.name, available },
    });
    emit({ topic: 'products', type: 'modifiers.updated', id: option.group_id, version: now });
    return requireGroup(trx, option.group_id);
  });
}
