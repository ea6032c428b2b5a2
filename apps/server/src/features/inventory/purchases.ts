import type { CfdiPreview, Purchase, SessionUser } from '@comanda/contract';
import { INVENTORY_MESSAGES as M } from '@comanda/domain';
import type { Trx } from '../../http/transaction.ts';
import { badRequest } from '../../http/errors.ts';
import type { WriteContext } from '../../http/request-context.ts';
import { parseCfdi } from './cfdi-purchase.ts';
import { recordPurchase } from './inventory-commands.ts';

export async function loadPurchase(db: Trx, id: string): Promise<Purchase> {
  const p = await db.selectFrom('purchases').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const lines = await db.selectFrom('purchase_lines').selectAll().where('purchase_id', '=', id).orderBy('id').execute();
  return {
    id: p.id,
    warehouseId: p.warehouse_id,
    supplierName: p.supplier_name,
    supplierRfc: p.supplier_rfc,
    invoiceUuid: p.invoice_uuid,
    subtotalCents: Number(p.subtotal_cents),
    ivaCents: Number(p.iva_cents),
    createdAt: Number(p.created_at),
    createdByName: p.created_by_name,
    lines: lines.map((l) => ({
      presentationId: l.presentation_id,
      insumoId: l.insumo_id,
      description: l.description,
      units: Number(l.units),
      qty: Number(l.qty),
      unitCostCents: Number(l.unit_cost_cents),
    })),
  };
}

/** The invoice's concepts with the presentation each was mapped to last time (by RFC, clave and description). */
export async function previewCfdi(db: Trx, xml: string): Promise<CfdiPreview> {
  const invoice = parseCfdi(xml);
  const known = await db.selectFrom('supplier_concepts').selectAll().where('rfc', '=', invoice.rfc).execute();
  const active = new Set((await db.selectFrom('insumo_presentations').select('id').where('active', '=', 1).execute()).map((p) => p.id));
  return {
    ...invoice,
    concepts: invoice.concepts.map((c) => {
      const hit = known.find((k) => k.clave_prod_serv === c.claveProdServ && k.description === c.description);
      return { ...c, presentationId: hit && active.has(hit.presentation_id) ? hit.presentation_id : null };
    }),
  };
}

/**
 * A purchase from the invoice: each concept goes to the presentation given for it (or the one
 * remembered), and every mapping given is remembered for the supplier's next invoice. A concept
 * mapped to nothing is left out; none mapped at all is refused.
 */
export async function purchaseFromCfdi(
  ctx: WriteContext,
  user: SessionUser,
  body: { xml: string; mappings?: (string | null)[]; warehouseId: string },
): Promise<string> {
  const preview = await previewCfdi(ctx.db.db, body.xml);
  const chosen = preview.concepts.map((c, i) => (body.mappings && i < body.mappings.length ? body.mappings[i] : c.presentationId) ?? null);
  if (body.mappings === undefined && chosen.some((p) => p === null)) throw badRequest(M.mappingNeeded, 'mapping_needed');
  const lines = preview.concepts.flatMap((c, i) => {
    const presentationId = chosen[i];
    return presentationId
      ? [{ presentationId, units: c.quantity, unitCostCents: c.unitValueCents, ivaCents: c.ivaCents, description: c.description }]
      : [];
  });
  if (lines.length === 0) throw badRequest(M.mappingNeeded, 'mapping_needed');
  return recordPurchase(ctx, user, {
    warehouseId: body.warehouseId,
    supplierName: preview.supplierName || null,
    supplierRfc: preview.rfc,
    note: null,
    lines,
    invoiceUuid: preview.uuid,
    remember: preview.concepts.flatMap((c, i) =>
      chosen[i] ? [{ rfc: preview.rfc, claveProdServ: c.claveProdServ, description: c.description, presentationId: chosen[i]! }] : [],
    ),
  });
}
