import type { ChosenModifierDto, ModifierGroup } from '@comanda/contract';
import { cents, modifierProblemMessage, resolveModifiers, type ChosenModifier, type ModifierGroupRule } from '@comanda/domain';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { AppError } from '../../http/errors.ts';

type Reader = Kysely<Database>;

/** Every modifier group with its options and attachments, in the admin's order (position, then name). */
export async function listModifierGroups(db: Reader): Promise<ModifierGroup[]> {
  const groups = await db.selectFrom('modifier_groups').selectAll().orderBy('position').orderBy('name').orderBy('id').execute();
  if (groups.length === 0) return [];
  const ids = groups.map((g) => g.id);
  const [options, links] = await Promise.all([
    db.selectFrom('modifier_options').selectAll().where('group_id', 'in', ids).orderBy('position').orderBy('id').execute(),
    db.selectFrom('modifier_links').selectAll().where('group_id', 'in', ids).orderBy('id').execute(),
  ]);
  return groups.map((g) => ({
    id: g.id,
    name: g.name,
    minSelect: Number(g.min_select),
    maxSelect: g.max_select === null ? null : Number(g.max_select),
    position: Number(g.position),
    options: options
      .filter((o) => o.group_id === g.id)
      .map((o) => ({ id: o.id, name: o.name, priceDelta: cents(Number(o.price_delta)), available: Number(o.available) === 1 })),
    productIds: links.filter((l) => l.group_id === g.id && l.product_id !== null).map((l) => l.product_id!),
    categories: links.filter((l) => l.group_id === g.id && l.category !== null).map((l) => l.category!),
    createdAt: Number(g.created_at),
    updatedAt: Number(g.updated_at),
  }));
}

/**
 * The groups that apply to a product, as the pricing rule needs them. A plain add (no option
 * chosen) reads only the groups: when none must be answered there is nothing else to check, so the
 * busiest path (a beer with an optional 'Preparación') costs one statement, not three.
 */
async function groupRulesFor(db: Reader, product: { id: string; category: string }, chosen: boolean): Promise<ModifierGroupRule[]> {
  const groups = await db
    .selectFrom('modifier_groups')
    .select(['id', 'name', 'min_select', 'max_select'])
    .where('id', 'in', (eb) =>
      eb
        .selectFrom('modifier_links')
        .select('group_id')
        .where((w) => w.or([w('product_id', '=', product.id), w('category', '=', product.category)])),
    )
    .orderBy('position')
    .orderBy('name')
    .orderBy('id')
    .execute();
  if (groups.length === 0 || (!chosen && groups.every((g) => Number(g.min_select) === 0))) return [];
  const options = await db
    .selectFrom('modifier_options')
    .select(['id', 'group_id', 'name', 'price_delta', 'available'])
    .where(
      'group_id',
      'in',
      groups.map((g) => g.id),
    )
    .orderBy('position')
    .orderBy('id')
    .execute();
  return groups.map((g) => ({
    id: g.id,
    name: g.name,
    minSelect: Number(g.min_select),
    maxSelect: g.max_select === null ? null : Number(g.max_select),
    options: options
      .filter((o) => o.group_id === g.id)
      .map((o) => ({ id: o.id, name: o.name, priceDelta: Number(o.price_delta), available: Number(o.available) === 1 })),
  }));
}

/** The line's price and snapshot: what an add writes onto the order item. */
export interface PricedChoice {
  unitPrice: number;
  chosen: ChosenModifier[];
  /** The JSON kept in order_items.modifiers; null when no option was chosen. */
  snapshot: string | null;
}

/**
 * Checks a waiter's chosen option ids against the groups the product has right now and prices
 * one unit (product price + the options' deltas). Called inside the add's transaction, so an
 * option marked unavailable a moment earlier is refused with its name: one clear answer (409).
 * A required group left out, too many options or an option of another product is a 400.
 */
export async function priceWithModifiers(
  db: Reader,
  product: { id: string; category: string; price: number },
  optionIds: readonly string[] | undefined,
): Promise<PricedChoice> {
  const groups = await groupRulesFor(db, product, (optionIds ?? []).length > 0);
  const result = resolveModifiers(groups, optionIds ?? [], product.price);
  if (!result.ok) {
    const message = modifierProblemMessage(result.problem);
    if (result.problem.kind === 'unavailable') throw new AppError(409, 'option_unavailable', message);
    throw new AppError(400, result.problem.kind === 'unknown' ? 'option_unknown' : 'options_required', message);
  }
  return { unitPrice: result.unitPrice, chosen: result.chosen, snapshot: snapshotOf(result.chosen) };
}

export const snapshotOf = (chosen: readonly ChosenModifier[]): string | null =>
  chosen.length === 0
    ? null
    : JSON.stringify(chosen.map((c) => ({ groupName: c.groupName, optionName: c.optionName, priceDelta: c.priceDelta })));

/** The item's stored snapshot as the contract's array (empty for none or an unreadable one). */
export function readModifiers(json: string | null | undefined): ChosenModifierDto[] {
  if (!json) return [];
  try {
    const parsed: unknown = JSON.parse(json);
    if (!Array.isArray(parsed)) return [];
    return parsed.flatMap((m: unknown) => {
      if (typeof m !== 'object' || m === null) return [];
      const { groupName, optionName, priceDelta } = m as Record<string, unknown>;
      if (typeof groupName !== 'string' || typeof optionName !== 'string') return [];
      return [
        {
          groupName,
          optionName,
          priceDelta: cents(typeof priceDelta === 'number' && Number.isSafeInteger(priceDelta) && priceDelta >= 0 ? priceDelta : 0),
        },
      ];
    });
  } catch {
    return [];
  }
}

/** The sum of a snapshot's deltas: "+ unidad" keeps the line's options at the deltas they were ordered with. */
export const snapshotDelta = (json: string | null | undefined): number => readModifiers(json).reduce((a, m) => a + m.priceDelta, 0);
