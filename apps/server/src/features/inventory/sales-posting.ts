import { postLine, unitRecipe, type LinePosted, type RecipeAmount } from '@comanda/domain';
import type { Db } from '../../db/connect.ts';
import type { Trx } from '../../http/transaction.ts';
import { transact } from '../../db/transact.ts';
import { newId } from '../../http/ids.ts';

/**
 * Sales into the stock ledger without touching the add's fast path: this worker reads the order
 * lines changed since its watermark, freezes a line's recipe (product and chosen modifiers) the
 * first time it sees it, and posts what the domain's postLine says — a sale, units given back by
 * a void before preparation — into the barra warehouse. The line's state (units, step) and its
 * movements commit together and each movement's source key 'line:<id>:<step>' is unique per
 * insumo, so a kill -9 or two processes at once never lose nor double a row.
 */

export const SALES_WAREHOUSE = 'barra';
const WATERMARK = 'inventory_watermark';
/** Lines are read again for this long: a transaction that began earlier may commit later. */
const SLACK_MS = 2 * 60_000;
const BATCH = 500;

interface SeenRow {
  id: string;
  order_id: string;
  product_id: string;
  quantity: number;
  is_deleted: number;
  status: string;
  station: string;
  modifiers: string | null;
  updated_at: number;
  waiter_id: string | null;
  waiter_name: string | null;
  posted_units: number | null;
  posted_step: number | null;
  posted_closed: number | null;
  recipe: string | null;
}

async function watermark(trx: Trx, now: number): Promise<number> {
  const row = await trx.selectFrom('counters').select('value').where('name', '=', WATERMARK).executeTakeFirst();
  if (row) return Number(row.value);
  // A first start reads only lines from now on: older nights had no recipes to post.
  const start = now - SLACK_MS;
  await trx
    .insertInto('counters')
    .values({ name: WATERMARK, value: start })
    .onConflict((oc) => oc.column('name').doNothing())
    .execute();
  return start;
}

/** The lines that need posting: never seen, or seen with other units, or voided since. */
async function linesToPost(trx: Trx, since: number): Promise<SeenRow[]> {
  return trx
    .selectFrom('order_items as oi')
    .innerJoin('orders as o', 'o.id', 'oi.order_id')
    .leftJoin('inventory_lines as il', 'il.line_id', 'oi.id')
    .select([
      'oi.id',
      'oi.order_id',
      'oi.product_id',
      'oi.quantity',
      'oi.is_deleted',
      'oi.status',
      'oi.station',
      'oi.modifiers',
      'oi.updated_at',
      'o.waiter_id',
      'o.waiter_name',
      'il.units as posted_units',
      'il.step as posted_step',
      'il.closed as posted_closed',
      'il.recipe',
    ])
    .where('oi.updated_at', '>=', since)
    .where((eb) =>
      eb.or([
        eb('il.line_id', 'is', null),
        eb.and([eb('il.closed', '=', 0), eb.or([eb('oi.is_deleted', '=', 1), eb('oi.quantity', '!=', eb.ref('il.units'))])]),
      ]),
    )
    .orderBy('oi.updated_at')
    .limit(BATCH)
    .execute() as Promise<SeenRow[]>;
}

/** Per-unit recipes of the batch's products and of every modifier option, by group and option name. */
async function recipeBook(trx: Trx, productIds: string[]) {
  const products = new Map<string, RecipeAmount[]>();
  if (productIds.length > 0) {
    const rows = await trx.selectFrom('product_recipes').selectAll().where('product_id', 'in', productIds).execute();
    for (const r of rows) {
      const list = products.get(r.product_id) ?? [];
      list.push({ insumoId: r.insumo_id, amount: Number(r.amount) });
      products.set(r.product_id, list);
    }
  }
  const options = new Map<string, RecipeAmount[]>();
  const rows = await trx
    .selectFrom('modifier_recipes as mr')
    .innerJoin('modifier_options as mo', 'mo.id', 'mr.option_id')
    .innerJoin('modifier_groups as mg', 'mg.id', 'mo.group_id')
    .select(['mg.name as group_name', 'mo.name as option_name', 'mr.insumo_id', 'mr.amount'])
    .execute();
  for (const r of rows) {
    const key = `${r.group_name}\u0000${r.option_name}`;
    const list = options.get(key) ?? [];
    list.push({ insumoId: r.insumo_id, amount: Number(r.amount) });
    options.set(key, list);
  }
  return { products, options };
}

/** The line's chosen options as its snapshot names them (groupName, optionName). */
function chosenKeys(modifiers: string | null): string[] {
  if (!modifiers) return [];
  try {
    const chosen = JSON.parse(modifiers) as { groupName?: string; optionName?: string }[];
    return chosen.map((c) => `${c.groupName ?? ''}\u0000${c.optionName ?? ''}`);
  } catch {
    return [];
  }
}

/**
 * Posts one batch of changed lines in one transaction; returns how many lines it looked at
 * (BATCH: call again). Safe to run from any number of processes at once.
 */
export async function postSales(db: Db, now: number): Promise<number> {
  return transact(db, async (trx) => {
    const since = await watermark(trx, now);
    const rows = await linesToPost(trx, since);
    const unseen = rows.filter((r) => r.recipe === null);
    const book = unseen.length > 0 ? await recipeBook(trx, [...new Set(unseen.map((r) => r.product_id))]) : null;
    const movements: {
      id: string;
      at: number;
      warehouse_id: string;
      insumo_id: string;
      kind: 'sale' | 'void_restore';
      qty: number;
      line_id: string;
      source_key: string;
      waiter_id: string | null;
      station: string;
    }[] = [];
    for (const row of rows) {
      let recipe: RecipeAmount[];
      let before: LinePosted | null = null;
      let step = 0;
      if (row.recipe === null) {
        recipe = unitRecipe(
          book?.products.get(row.product_id) ?? [],
          chosenKeys(row.modifiers).map((k) => book?.options.get(k) ?? []),
        );
      } else {
        recipe = JSON.parse(row.recipe) as RecipeAmount[];
        before = { units: Number(row.posted_units), closed: row.posted_closed === 1 };
        step = Number(row.posted_step);
      }
      const seen = { quantity: Number(row.quantity), isDeleted: row.is_deleted === 1, status: row.status };
      let state = before;
      const firstStep = step;
      for (let i = 0; i < 3; i++) {
        const { movement, next } = postLine(seen, state);
        state = next;
        if (!movement) break;
        for (const r of recipe) {
          if (r.amount === 0) continue;
          movements.push({
            id: newId(),
            at: now,
            warehouse_id: SALES_WAREHOUSE,
            insumo_id: r.insumoId,
            kind: movement.kind,
            qty: (movement.kind === 'sale' ? -1 : 1) * r.amount * movement.units,
            line_id: row.id,
            source_key: `line:${row.id}:${step}`,
            waiter_id: row.waiter_id,
            station: row.station,
          });
        }
        step++;
      }
      if (!state) continue;
      const values = { units: state.units, step, closed: state.closed ? 1 : 0 };
      if (row.recipe === null) {
        await trx
          .insertInto('inventory_lines')
          .values({
            line_id: row.id,
            order_id: row.order_id,
            recipe: JSON.stringify(recipe),
            ...values,
            waiter_id: row.waiter_id,
            waiter_name: row.waiter_name,
            station: row.station,
            sold_at: now,
          })
          .execute();
      } else {
        // Another process that posted this line first moved its step: this batch rolls back.
        const done = await trx
          .updateTable('inventory_lines')
          .set(values)
          .where('line_id', '=', row.id)
          .where('step', '=', firstStep)
          .executeTakeFirst();
        if (Number(done.numUpdatedRows) !== 1) throw new Error('inventory line posted elsewhere');
      }
    }
    for (let i = 0; i < movements.length; i += 200) {
      await trx
        .insertInto('stock_movements')
        .values(movements.slice(i, i + 200))
        .execute();
    }
    // Moved only along with posted lines: an idle bar writes nothing.
    if (rows.length > 0 && rows.length < BATCH) {
      const next = Math.max(since, now - SLACK_MS);
      if (next !== since) await trx.updateTable('counters').set({ value: next }).where('name', '=', WATERMARK).execute();
    }
    return rows.length;
  });
}
