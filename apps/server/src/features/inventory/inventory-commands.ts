import type { Insumo, InsumoBody, CountBody, PurchaseBody, StockCount, SessionUser } from '@comanda/contract';
import { countAdjustment, INVENTORY_MESSAGES as M, tenthsContent, weighedMl } from '@comanda/domain';
import { mutate, type Trx } from '../../http/transaction.ts';
import { audit } from '../../http/audit.ts';
import { badRequest, conflict, notFound } from '../../http/errors.ts';
import { newId } from '../../http/ids.ts';
import type { WriteContext } from '../../http/request-context.ts';
import { findInsumo, loadCount, stockByInsumo } from './inventory-store.ts';
import { refreshAutoAgotado } from './auto-agotado.ts';

/** The inventory's writes: each one transaction with its idempotency key (mutate), audited. */

/** What every write tells the inventory's screens (after commit). */
const CHANGED = { topic: 'inventory', type: 'inventory.changed' } as const;

const actor = (u: SessionUser) => ({ id: u.id, displayName: u.displayName });

async function requireWarehouse(trx: Trx, id: string): Promise<void> {
  const row = await trx.selectFrom('warehouses').select('id').where('id', '=', id).executeTakeFirst();
  if (!row) throw notFound(M.warehouseNotFound);
}

async function requireInsumoRow(trx: Trx, id: string) {
  const row = await trx.selectFrom('insumos').selectAll().where('id', '=', id).executeTakeFirst();
  if (!row) throw notFound(M.insumoNotFound);
  return row;
}

export async function saveInsumo(ctx: WriteContext, user: SessionUser, id: string | null, body: InsumoBody): Promise<Insumo> {
  return mutate(ctx, async (trx, emit) => {
    const now = ctx.clock.now();
    emit(CHANGED);
    const clash = await trx.selectFrom('insumos').select('id').where('name', '=', body.name).executeTakeFirst();
    if (clash && clash.id !== id) throw conflict(M.insumoNameTaken, 'insumo_name_taken');
    const values = { name: body.name, unit: body.unit, min_stock: body.minStock, pour_size: body.pourSize, updated_at: now };
    const insumoId = id ?? newId();
    if (id) {
      await requireInsumoRow(trx, id);
      await trx
        .updateTable('insumos')
        .set({ ...values, active: 1 })
        .where('id', '=', id)
        .execute();
    } else {
      await trx
        .insertInto('insumos')
        .values({ id: insumoId, ...values, last_cost_cents: null, last_cost_content: null, active: 1, created_at: now })
        .execute();
    }
    // Presentations keep their ids (purchases and supplier concepts point at them); missing ones retire.
    const existing = await trx.selectFrom('insumo_presentations').select('id').where('insumo_id', '=', insumoId).execute();
    const kept = new Set(existing.map((p) => p.id));
    const sent = new Set(body.presentations.flatMap((p) => (p.id ? [p.id] : [])));
    for (const pid of sent) if (!kept.has(pid)) throw notFound(M.presentationNotFound);
    const gone = [...kept].filter((pid) => !sent.has(pid));
    if (gone.length > 0) await trx.updateTable('insumo_presentations').set({ active: 0 }).where('id', 'in', gone).execute();
    for (const p of body.presentations) {
      const row = { name: p.name, content: p.content, tare_g: p.tareG, density_mg_ml: p.densityMgPerMl, active: 1 };
      if (p.id) await trx.updateTable('insumo_presentations').set(row).where('id', '=', p.id).execute();
      else
        await trx
          .insertInto('insumo_presentations')
          .values({ id: newId(), insumo_id: insumoId, ...row, last_cost_cents: null, created_at: now })
          .execute();
    }
    await audit(trx, now, {
      actor: actor(user),
      action: id ? 'inventory.insumo-updated' : 'inventory.insumo-created',
      entity: 'insumo',
      entityId: insumoId,
      data: { name: body.name, unit: body.unit, minStock: body.minStock, presentations: body.presentations.length },
    });
    return (await findInsumo(trx, insumoId))!;
  });
}

/** An insumo leaves the lists; its ledger and recipes stay (the past never changes). */
export async function retireInsumo(ctx: WriteContext, user: SessionUser, id: string): Promise<void> {
  await mutate(ctx, async (trx, emit) => {
    const now = ctx.clock.now();
    emit(CHANGED);
    const row = await requireInsumoRow(trx, id);
    await trx.updateTable('insumos').set({ active: 0, updated_at: now }).where('id', '=', id).execute();
    await audit(trx, now, {
      actor: actor(user),
      action: 'inventory.insumo-retired',
      entity: 'insumo',
      entityId: id,
      data: { name: row.name },
    });
  });
}

async function checkInsumos(trx: Trx, ids: string[]): Promise<void> {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return;
  const found = await trx.selectFrom('insumos').select('id').where('id', 'in', unique).execute();
  if (found.length !== unique.length) throw notFound(M.insumoNotFound);
}

/**
 * A product's or a modifier option's recipe, replaced whole and appended as a new version in force
 * from now; lines added before keep the version they were added under.
 */
export async function setRecipe(
  ctx: WriteContext,
  user: SessionUser,
  target: { productId: string } | { optionId: string },
  items: { insumoId: string; amount: number }[],
  autoAgotado?: boolean,
): Promise<void> {
  await mutate(ctx, async (trx, emit) => {
    const now = ctx.clock.now();
    emit(CHANGED);
    await checkInsumos(
      trx,
      items.map((i) => i.insumoId),
    );
    const merged = new Map<string, number>();
    for (const i of items) merged.set(i.insumoId, (merged.get(i.insumoId) ?? 0) + i.amount);
    if ('productId' in target) {
      const p = await trx.selectFrom('products').select('id').where('id', '=', target.productId).executeTakeFirst();
      if (!p) throw notFound(M.productNotFound);
      await trx.deleteFrom('product_recipes').where('product_id', '=', target.productId).execute();
      const rows = [...merged].map(([insumo_id, amount]) => ({ product_id: target.productId, insumo_id, amount }));
      if (rows.length > 0) await trx.insertInto('product_recipes').values(rows).execute();
      if (autoAgotado === true)
        await trx
          .insertInto('product_auto_agotado')
          .values({ product_id: target.productId, state: 0 })
          .onConflict((oc) => oc.column('product_id').doNothing())
          .execute();
      // Opting out leaves the product as it is: whoever needs it back switches it on.
      if (autoAgotado === false) await trx.deleteFrom('product_auto_agotado').where('product_id', '=', target.productId).execute();
    } else {
      const o = await trx.selectFrom('modifier_options').select('id').where('id', '=', target.optionId).executeTakeFirst();
      if (!o) throw notFound(M.optionNotFound);
      await trx.deleteFrom('modifier_recipes').where('option_id', '=', target.optionId).execute();
      const rows = [...merged].map(([insumo_id, amount]) => ({ option_id: target.optionId, insumo_id, amount }));
      if (rows.length > 0) await trx.insertInto('modifier_recipes').values(rows).execute();
    }
    // Appended whole with the server's time: a line added before now keeps the version it was added under.
    await trx
      .insertInto('recipe_versions')
      .values({
        id: newId(),
        product_id: 'productId' in target ? target.productId : null,
        option_id: 'productId' in target ? null : target.optionId,
        effective_from: now,
        amounts: JSON.stringify([...merged].map(([insumoId, amount]) => ({ insumoId, amount }))),
        created_by: user.id,
      })
      .execute();
    await audit(trx, now, {
      actor: actor(user),
      action: 'inventory.recipe-set',
      entity: 'productId' in target ? 'product' : 'modifier-option',
      entityId: 'productId' in target ? target.productId : target.optionId,
      data: {
        items: [...merged].map(([insumoId, amount]) => ({ insumoId, amount })),
        ...(autoAgotado === undefined ? {} : { autoAgotado }),
      },
    });
  });
  await refreshAutoAgotado(ctx);
}

export interface PurchaseInput extends PurchaseBody {
  invoiceUuid?: string | null;
  /** Supplier concepts to remember: (rfc, clave, description) → presentation. */
  remember?: { rfc: string; claveProdServ: string; description: string; presentationId: string }[];
}

/** A purchase: a 'purchase' movement per line in its warehouse, and the presentation's and insumo's last cost. */
export async function recordPurchase(ctx: WriteContext, user: SessionUser, input: PurchaseInput): Promise<string> {
  const id = await mutate(ctx, async (trx, emit) => {
    const now = ctx.clock.now();
    emit(CHANGED);
    await requireWarehouse(trx, input.warehouseId);
    if (input.lines.length === 0) throw badRequest(M.purchaseEmpty, 'purchase_empty');
    if (input.invoiceUuid) {
      const seen = await trx.selectFrom('purchases').select('id').where('invoice_uuid', '=', input.invoiceUuid).executeTakeFirst();
      if (seen) throw conflict('Esa factura ya se registró como compra.', 'invoice_taken');
    }
    const ids = [...new Set(input.lines.map((l) => l.presentationId))];
    const presentations = await trx.selectFrom('insumo_presentations').selectAll().where('id', 'in', ids).execute();
    const byId = new Map(presentations.map((p) => [p.id, p]));
    if (presentations.length !== ids.length) throw notFound(M.presentationNotFound);
    const purchaseId = newId();
    const subtotal = input.lines.reduce((s, l) => s + l.unitCostCents * l.units, 0);
    const iva = input.lines.reduce((s, l) => s + l.ivaCents, 0);
    await trx
      .insertInto('purchases')
      .values({
        id: purchaseId,
        warehouse_id: input.warehouseId,
        supplier_rfc: input.supplierRfc,
        supplier_name: input.supplierName,
        invoice_uuid: input.invoiceUuid ?? null,
        subtotal_cents: subtotal,
        iva_cents: iva,
        note: input.note,
        created_by: user.id,
        created_by_name: user.displayName,
        created_at: now,
      })
      .execute();
    for (const line of input.lines) {
      const p = byId.get(line.presentationId)!;
      const qty = line.units * Number(p.content);
      await trx
        .insertInto('purchase_lines')
        .values({
          id: newId(),
          purchase_id: purchaseId,
          presentation_id: p.id,
          insumo_id: p.insumo_id,
          description: line.description ?? p.name,
          units: line.units,
          qty,
          unit_cost_cents: line.unitCostCents,
          iva_cents: line.ivaCents,
        })
        .execute();
      await trx
        .insertInto('stock_movements')
        .values(
          movement(now, user, { warehouse_id: input.warehouseId, insumo_id: p.insumo_id, kind: 'purchase', qty, purchase_id: purchaseId }),
        )
        .execute();
      await trx.updateTable('insumo_presentations').set({ last_cost_cents: line.unitCostCents }).where('id', '=', p.id).execute();
      await trx
        .updateTable('insumos')
        .set({ last_cost_cents: line.unitCostCents, last_cost_content: Number(p.content), updated_at: now })
        .where('id', '=', p.insumo_id)
        .execute();
    }
    for (const r of input.remember ?? []) {
      await trx
        .insertInto('supplier_concepts')
        .values({
          rfc: r.rfc,
          clave_prod_serv: r.claveProdServ,
          description: r.description,
          presentation_id: r.presentationId,
          updated_at: now,
        })
        .onConflict((oc) =>
          oc.columns(['rfc', 'clave_prod_serv', 'description']).doUpdateSet({ presentation_id: r.presentationId, updated_at: now }),
        )
        .execute();
    }
    await audit(trx, now, {
      actor: actor(user),
      action: 'inventory.purchase',
      entity: 'purchase',
      entityId: purchaseId,
      data: {
        supplier: input.supplierName,
        rfc: input.supplierRfc,
        invoiceUuid: input.invoiceUuid ?? null,
        subtotal,
        iva,
        lines: input.lines.length,
      },
    });
    return purchaseId;
  });
  await refreshAutoAgotado(ctx);
  return id;
}

function movement(
  now: number,
  user: SessionUser,
  m: {
    warehouse_id: string;
    insumo_id: string;
    kind: 'purchase' | 'transfer_out' | 'transfer_in' | 'merma' | 'comp' | 'count_adjustment';
    qty: number;
    reason?: string;
    purchase_id?: string;
    count_id?: string;
    transfer_id?: string;
  },
) {
  return {
    id: newId(),
    at: now,
    reason: null,
    line_id: null,
    purchase_id: null,
    count_id: null,
    transfer_id: null,
    source_key: null,
    waiter_id: null,
    station: null,
    actor_id: user.id,
    actor_name: user.displayName,
    ...m,
  };
}

export async function transferStock(
  ctx: WriteContext,
  user: SessionUser,
  input: { from: string; to: string; lines: { insumoId: string; qty: number }[] },
): Promise<void> {
  if (input.from === input.to) throw badRequest(M.sameWarehouse, 'same_warehouse');
  await mutate(ctx, async (trx, emit) => {
    const now = ctx.clock.now();
    emit(CHANGED);
    await requireWarehouse(trx, input.from);
    await requireWarehouse(trx, input.to);
    await checkInsumos(
      trx,
      input.lines.map((l) => l.insumoId),
    );
    const transferId = newId();
    for (const l of input.lines) {
      await trx
        .insertInto('stock_movements')
        .values([
          movement(now, user, {
            warehouse_id: input.from,
            insumo_id: l.insumoId,
            kind: 'transfer_out',
            qty: -l.qty,
            transfer_id: transferId,
          }),
          movement(now, user, { warehouse_id: input.to, insumo_id: l.insumoId, kind: 'transfer_in', qty: l.qty, transfer_id: transferId }),
        ])
        .execute();
    }
    await audit(trx, now, {
      actor: actor(user),
      action: 'inventory.transfer',
      entity: 'transfer',
      entityId: transferId,
      data: { ...input },
    });
  });
  await refreshAutoAgotado(ctx);
}

export async function recordMerma(
  ctx: WriteContext,
  user: SessionUser,
  input: { warehouseId: string; insumoId: string; qty: number; reason: string },
): Promise<void> {
  await mutate(ctx, async (trx, emit) => {
    const now = ctx.clock.now();
    emit(CHANGED);
    await requireWarehouse(trx, input.warehouseId);
    const row = await requireInsumoRow(trx, input.insumoId);
    await trx
      .insertInto('stock_movements')
      .values(
        movement(now, user, {
          warehouse_id: input.warehouseId,
          insumo_id: input.insumoId,
          kind: 'merma',
          qty: -input.qty,
          reason: input.reason,
        }),
      )
      .execute();
    const cost =
      row.last_cost_cents !== null && row.last_cost_content
        ? Math.round((input.qty * Number(row.last_cost_cents)) / Number(row.last_cost_content))
        : null;
    await audit(trx, now, {
      actor: actor(user),
      action: 'inventory.merma',
      entity: 'insumo',
      entityId: input.insumoId,
      data: { name: row.name, qty: input.qty, reason: input.reason, warehouseId: input.warehouseId, costCents: cost },
    });
  });
  await refreshAutoAgotado(ctx);
}

/**
 * A count: what is on the shelf (closed presentations, open bottles weighed or in tenths, loose
 * units) against the ledger's stock read in the same transaction; one adjustment per insumo
 * (counted − theoretical) and the count's lines frozen with who counted.
 */
export async function recordCount(ctx: WriteContext, user: SessionUser, input: CountBody): Promise<StockCount> {
  const id = await mutate(ctx, async (trx, emit) => {
    const now = ctx.clock.now();
    emit(CHANGED);
    await requireWarehouse(trx, input.warehouseId);
    const insumoIds = [...new Set(input.lines.map((l) => l.insumoId))];
    await checkInsumos(trx, insumoIds);
    const presentations = await trx.selectFrom('insumo_presentations').selectAll().where('insumo_id', 'in', insumoIds).execute();
    const byId = new Map(presentations.map((p) => [p.id, p]));
    const stock = await stockByInsumo(trx, { warehouseId: input.warehouseId });
    const countId = newId();
    await trx
      .insertInto('stock_counts')
      .values({
        id: countId,
        warehouse_id: input.warehouseId,
        note: input.note,
        counted_by: user.id,
        counted_by_name: user.displayName,
        created_at: now,
      })
      .execute();
    const counted = new Map<string, { qty: number; detail: unknown[] }>();
    for (const line of input.lines) {
      const entry = counted.get(line.insumoId) ?? { qty: line.loose, detail: [] };
      if (counted.has(line.insumoId)) entry.qty += line.loose;
      if (line.loose) entry.detail.push({ loose: line.loose });
      for (const c of line.closed) {
        const p = byId.get(c.presentationId);
        if (!p || p.insumo_id !== line.insumoId) throw notFound(M.presentationNotFound);
        entry.qty += c.units * Number(p.content);
        entry.detail.push({ presentationId: p.id, closed: c.units });
      }
      for (const o of line.open) {
        const p = byId.get(o.presentationId);
        if (!p || p.insumo_id !== line.insumoId) throw notFound(M.presentationNotFound);
        let qty: number;
        if (o.grossG !== undefined) {
          if (p.tare_g === null || p.density_mg_ml === null) throw badRequest(M.weighNeedsTare, 'weigh_needs_tare');
          qty = weighedMl(o.grossG, { content: Number(p.content), tareG: Number(p.tare_g), densityMgPerMl: Number(p.density_mg_ml) });
          entry.detail.push({ presentationId: p.id, grossG: o.grossG, qty });
        } else {
          qty = tenthsContent(o.tenths ?? 0, Number(p.content));
          entry.detail.push({ presentationId: p.id, tenths: o.tenths ?? 0, qty });
        }
        entry.qty += qty;
      }
      counted.set(line.insumoId, entry);
    }
    for (const [insumoId, c] of counted) {
      const theoretical = stock.get(insumoId)?.[input.warehouseId] ?? 0;
      const adjustment = countAdjustment(c.qty, theoretical);
      await trx
        .insertInto('stock_count_lines')
        .values({ count_id: countId, insumo_id: insumoId, theoretical, counted: c.qty, adjustment, detail: JSON.stringify(c.detail) })
        .execute();
      if (adjustment !== 0)
        await trx
          .insertInto('stock_movements')
          .values(
            movement(now, user, {
              warehouse_id: input.warehouseId,
              insumo_id: insumoId,
              kind: 'count_adjustment',
              qty: adjustment,
              count_id: countId,
            }),
          )
          .execute();
    }
    await audit(trx, now, {
      actor: actor(user),
      action: 'inventory.count',
      entity: 'count',
      entityId: countId,
      data: {
        warehouseId: input.warehouseId,
        lines: [...counted].map(([insumoId, c]) => ({
          insumoId,
          counted: c.qty,
          theoretical: stock.get(insumoId)?.[input.warehouseId] ?? 0,
        })),
      },
    });
    return countId;
  });
  await refreshAutoAgotado(ctx);
  return loadCount(ctx.db.db, id);
}
