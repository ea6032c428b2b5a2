import { postLine, unitRecipe, type LinePosted, type RecipeAmount } from '@comanda/domain';
import { sql, type Insertable } from 'kysely';
import type { Db } from '../../db/connect.ts';
import type { InventoryLinesTable } from '../../db/schema-inventory.ts';
import type { Trx } from '../../http/transaction.ts';
import { transact } from '../../db/transact.ts';
import { newId } from '../../http/ids.ts';

/**
 * Sales into the stock ledger without touching the add's fast path (decision 0059): this worker
 * reads the order lines changed since its watermark, and the lines of orders whose comps changed,
 * freezes a line's recipe the first time it sees it — the recipe version in force when the line
 * was added (recipes are appended with the server's time), so an edit made before the worker
 * runs never rewrites it — and posts what the domain's postLine says: a sale, a comp (or a sale
 * reclassified as one), units given back by a void before preparation, into the warehouse of the
 * line's station. The line's state (units, comped units, step) and its movements commit together
 * and each movement's source key 'line:<id>:<step>' is unique per insumo, so a kill -9 or two
 * processes at once never lose nor double a row.
 */

export const SALES_WAREHOUSE = 'barra';
const WATERMARK = 'inventory_watermark';
/** Lines are read again for this long: a transaction that began earlier may commit later. */
const SLACK_MS = 2 * 60_000;
const BATCH = 500;
/** Rows per INSERT or UPDATE statement: well under both databases' limits on bound parameters. */
const ROWS_PER_STATEMENT = 200;

/** A posted line's new state, written only while its step is still the one this batch read. */
interface LineUpdate {
  lineId: string;
  firstStep: number;
  units: number;
  compUnits: number;
  step: number;
  closed: number;
}

/**
 * The batch's posted lines in one UPDATE per ROWS_PER_STATEMENT (both databases take UPDATE …
 * FROM a CTE of VALUES). Another process that posted one of them first moved its step: fewer rows
 * change, and the batch rolls back.
 */
async function updateLines(trx: Trx, updates: readonly LineUpdate[]): Promise<void> {
  for (let i = 0; i < updates.length; i += ROWS_PER_STATEMENT) {
    const chunk = updates.slice(i, i + ROWS_PER_STATEMENT);
    const rows = sql.join(
      chunk.map(
        (u) =>
          sql`(${u.lineId}, CAST(${u.firstStep} AS integer), CAST(${u.units} AS integer), CAST(${u.compUnits} AS integer), CAST(${u.step} AS integer), CAST(${u.closed} AS integer))`,
      ),
    );
    const done = await sql`WITH v(line_id, first_step, units, comp_units, step, closed) AS (VALUES ${rows})
      UPDATE inventory_lines SET units = v.units, comp_units = v.comp_units, step = v.step, closed = v.closed
      FROM v WHERE inventory_lines.line_id = v.line_id AND inventory_lines.step = v.first_step`.execute(trx);
    if (Number(done.numAffectedRows ?? 0) !== chunk.length) throw new Error('inventory line posted elsewhere');
  }
}

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
  created_at: number;
  waiter_id: string | null;
  waiter_name: string | null;
  posted_units: number | null;
  posted_step: number | null;
  posted_closed: number | null;
  posted_comp: number | null;
  recipe: string | null;
}

async function watermark(trx: Trx, now: number, lock: boolean): Promise<number> {
  // On PostgreSQL the watermark's row is locked: workers of several processes take turns instead
  // of posting the same line at once and rolling back (SQLite's writers take turns already).
  const query = trx.selectFrom('counters').select('value').where('name', '=', WATERMARK);
  const row = await (lock ? query.forUpdate() : query).executeTakeFirst();
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

function seenLines(trx: Trx) {
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
      'oi.created_at',
      'o.waiter_id',
      'o.waiter_name',
      'il.units as posted_units',
      'il.step as posted_step',
      'il.closed as posted_closed',
      'il.comp_units as posted_comp',
      'il.recipe',
    ]);
}

/** The lines that need posting: never seen, or seen with other units, or voided since. */
async function linesToPost(trx: Trx, since: number): Promise<SeenRow[]> {
  return seenLines(trx)
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

/**
 * The open lines of orders whose comps changed since the watermark: a comp or its removal does
 * not touch the line itself.
 */
async function compedLines(trx: Trx, since: number): Promise<SeenRow[]> {
  const orders = await trx
    .selectFrom('order_adjustments')
    .select('order_id')
    .distinct()
    .where('kind', '=', 'comp')
    .where((eb) => eb.or([eb('created_at', '>=', since), eb('removed_at', '>=', since)]))
    .limit(BATCH)
    .execute();
  if (orders.length === 0) return [];
  return seenLines(trx)
    .where(
      'oi.order_id',
      'in',
      orders.map((o) => o.order_id),
    )
    .where((eb) => eb.or([eb('il.line_id', 'is', null), eb('il.closed', '=', 0)]))
    .execute() as Promise<SeenRow[]>;
}

/** Units of each line given away: its live comps of units, or all of it under a live whole-order comp. */
async function compUnitsOf(trx: Trx, orderIds: string[]): Promise<{ items: Map<string, number>; orders: Set<string> }> {
  const items = new Map<string, number>();
  const orders = new Set<string>();
  if (orderIds.length === 0) return { items, orders };
  const rows = await trx
    .selectFrom('order_adjustments')
    .select(['order_id', 'item_id', 'units'])
    .where('order_id', 'in', orderIds)
    .where('kind', '=', 'comp')
    .where('removed_at', 'is', null)
    .execute();
  for (const r of rows) {
    if (r.item_id === null) orders.add(r.order_id);
    else items.set(r.item_id, (items.get(r.item_id) ?? 0) + Number(r.units ?? 0));
  }
  return { items, orders };
}

interface Version {
  from: number;
  amounts: RecipeAmount[];
}

/** The version in force at `at`: the last one that took effect at or before it. */
function inForce(versions: readonly Version[] | undefined, at: number): RecipeAmount[] | undefined {
  if (!versions || versions.length === 0) return undefined;
  let found: Version | undefined;
  for (const v of versions) if (v.from <= at) found = v;
  return found?.amounts ?? [];
}

/**
 * The recipe versions of the batch's products and of every modifier option (options by group and
 * option name, as the line's snapshot names them). A product or option with no version recorded
 * (its rows written straight to the recipe tables) uses its rows as they are.
 */
async function recipeBook(trx: Trx, productIds: string[], upTo: number) {
  const products = new Map<string, Version[]>();
  const current = new Map<string, RecipeAmount[]>();
  if (productIds.length > 0) {
    const versions = await trx
      .selectFrom('recipe_versions')
      .select(['product_id', 'effective_from', 'amounts'])
      .where('product_id', 'in', productIds)
      .where('effective_from', '<=', upTo)
      .orderBy('effective_from')
      .orderBy('id')
      .execute();
    for (const v of versions) {
      const list = products.get(v.product_id!) ?? [];
      list.push({ from: Number(v.effective_from), amounts: JSON.parse(v.amounts) as RecipeAmount[] });
      products.set(v.product_id!, list);
    }
    const rows = await trx.selectFrom('product_recipes').selectAll().where('product_id', 'in', productIds).execute();
    for (const r of rows) {
      const list = current.get(r.product_id) ?? [];
      list.push({ insumoId: r.insumo_id, amount: Number(r.amount) });
      current.set(r.product_id, list);
    }
  }
  const names = new Map<string, string>();
  for (const o of await trx
    .selectFrom('modifier_options as mo')
    .innerJoin('modifier_groups as mg', 'mg.id', 'mo.group_id')
    .select(['mo.id', 'mg.name as group_name', 'mo.name as option_name'])
    .execute())
    names.set(o.id, `${o.group_name}\u0000${o.option_name}`);
  const optionVersions = new Map<string, Version[]>();
  for (const v of await trx
    .selectFrom('recipe_versions')
    .select(['option_id', 'effective_from', 'amounts'])
    .where('option_id', 'is not', null)
    .where('effective_from', '<=', upTo)
    .orderBy('effective_from')
    .orderBy('id')
    .execute()) {
    const list = optionVersions.get(v.option_id!) ?? [];
    list.push({ from: Number(v.effective_from), amounts: JSON.parse(v.amounts) as RecipeAmount[] });
    optionVersions.set(v.option_id!, list);
  }
  const optionCurrent = new Map<string, RecipeAmount[]>();
  for (const r of await trx.selectFrom('modifier_recipes').selectAll().execute()) {
    const list = optionCurrent.get(r.option_id) ?? [];
    list.push({ insumoId: r.insumo_id, amount: Number(r.amount) });
    optionCurrent.set(r.option_id, list);
  }
  /** Every option id under a snapshot's (group, option) name. */
  const byName = new Map<string, string[]>();
  for (const [id, key] of names) byName.set(key, [...(byName.get(key) ?? []), id]);
  return {
    product(id: string, at: number): RecipeAmount[] {
      return inForce(products.get(id), at) ?? current.get(id) ?? [];
    },
    option(key: string, at: number): RecipeAmount[] {
      return (byName.get(key) ?? []).flatMap((id) => inForce(optionVersions.get(id), at) ?? optionCurrent.get(id) ?? []);
    },
  };
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
    const since = await watermark(trx, now, db.kind === 'postgres');
    const changed = await linesToPost(trx, since);
    const ids = new Set(changed.map((r) => r.id));
    const rows = [...changed, ...(await compedLines(trx, since)).filter((r) => !ids.has(r.id))];
    const comps = await compUnitsOf(trx, [...new Set(rows.map((r) => r.order_id))]);
    const unseen = rows.filter((r) => r.recipe === null);
    const book =
      unseen.length > 0
        ? await recipeBook(trx, [...new Set(unseen.map((r) => r.product_id))], Math.max(...unseen.map((r) => Number(r.created_at))))
        : null;
    const stations = new Map(
      (await trx.selectFrom('warehouses').select(['id', 'station']).where('station', 'is not', null).execute()).map(
        (w) => [w.station!, w.id] as const,
      ),
    );
    const inserts: Insertable<InventoryLinesTable>[] = [];
    const updates: LineUpdate[] = [];
    const movements: {
      id: string;
      at: number;
      warehouse_id: string;
      insumo_id: string;
      kind: 'sale' | 'void_restore' | 'comp';
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
        // The recipe in force when the line was added, not when the worker got to it.
        const at = Number(row.created_at);
        recipe = unitRecipe(
          book?.product(row.product_id, at) ?? [],
          chosenKeys(row.modifiers).map((k) => book?.option(k, at) ?? []),
        );
      } else {
        recipe = JSON.parse(row.recipe) as RecipeAmount[];
        before = { units: Number(row.posted_units), compUnits: Number(row.posted_comp ?? 0), closed: row.posted_closed === 1 };
        step = Number(row.posted_step);
      }
      const seen = {
        quantity: Number(row.quantity),
        isDeleted: row.is_deleted === 1,
        status: row.status,
        compUnits: comps.orders.has(row.order_id) ? Number(row.quantity) : (comps.items.get(row.id) ?? 0),
      };
      const firstStep = step;
      const { movements: posted, next } = postLine(seen, before);
      if (before && posted.length === 0 && next.closed === before.closed) continue;
      const warehouse = stations.get(row.station) ?? SALES_WAREHOUSE;
      for (const movement of posted) {
        for (const r of recipe) {
          if (r.amount === 0) continue;
          movements.push({
            id: newId(),
            at: now,
            warehouse_id: warehouse,
            insumo_id: r.insumoId,
            kind: movement.kind,
            qty: -r.amount * movement.units,
            line_id: row.id,
            source_key: `line:${row.id}:${step}`,
            waiter_id: row.waiter_id,
            station: row.station,
          });
        }
        step++;
      }
      const values = { units: next.units, comp_units: next.compUnits ?? 0, step, closed: next.closed ? 1 : 0 };
      if (row.recipe === null)
        inserts.push({
          line_id: row.id,
          order_id: row.order_id,
          recipe: JSON.stringify(recipe),
          ...values,
          waiter_id: row.waiter_id,
          waiter_name: row.waiter_name,
          station: row.station,
          sold_at: now,
        });
      else updates.push({ lineId: row.id, firstStep, units: values.units, compUnits: values.comp_units, step, closed: values.closed });
    }
    // The lines' states in a few statements, not one per line: a line posted by another process
    // first fails the INSERT (its key) or the UPDATE (its step), and the batch rolls back.
    for (let i = 0; i < inserts.length; i += ROWS_PER_STATEMENT)
      await trx
        .insertInto('inventory_lines')
        .values(inserts.slice(i, i + ROWS_PER_STATEMENT))
        .execute();
    await updateLines(trx, updates);
    for (let i = 0; i < movements.length; i += ROWS_PER_STATEMENT) {
      await trx
        .insertInto('stock_movements')
        .values(movements.slice(i, i + ROWS_PER_STATEMENT))
        .execute();
    }
    // Moved only along with posted lines: an idle bar writes nothing.
    if (changed.length > 0 && changed.length < BATCH) {
      const next = Math.max(since, now - SLACK_MS);
      if (next !== since) await trx.updateTable('counters').set({ value: next }).where('name', '=', WATERMARK).execute();
    }
    return changed.length;
  });
}
