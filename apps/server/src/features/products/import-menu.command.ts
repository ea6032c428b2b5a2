import type { MenuImportResult, SessionUser } from '@comanda/contract';
import type { MenuRow } from '@comanda/domain';
import {
  DEFAULT_SAT_PRODUCT_KEY,
  DEFAULT_SAT_UNIT_KEY,
  foldText,
  MENU_LIMITS,
  MENU_MESSAGES,
  menuNameKey,
  parseMenuTable,
} from '@comanda/domain';
import { defaultTreatment } from '../../model/fiscal-store.ts';
import { audit } from '../../http/audit.ts';
import { newId } from '../../http/ids.ts';
import { answeredWithoutWrite, mutate } from '../../http/transaction.ts';
import { productGroupNames, readCsv } from './menu-sheet.ts';
import type { WriteContext } from '../../http/request-context.ts';

interface Existing {
  id: string;
  name: string;
  description: string;
  price: number;
  category: string;
  available: number;
  tax_treatment: string;
  sat_product_key: string;
  sat_unit_key: string;
  ieps_rate_bp: number | null;
}

/** The sheet's tax cells as columns: only those it gives (an empty or missing one leaves the product's). */
const taxValues = (row: MenuRow) => ({
  ...(row.taxTreatment !== undefined ? { tax_treatment: row.taxTreatment } : {}),
  ...(row.satProductKey !== undefined ? { sat_product_key: row.satProductKey } : {}),
  ...(row.satUnitKey !== undefined ? { sat_unit_key: row.satUnitKey } : {}),
  ...(row.iepsRateBp !== undefined ? { ieps_rate_bp: row.iepsRateBp } : {}),
});

const sameTaxes = (row: MenuRow, p: Existing) =>
  Object.entries(taxValues(row)).every(([k, v]) =>
    v === null ? p[k as keyof Existing] === null : String(v) === String(p[k as keyof Existing]),
  );

const same = (row: MenuRow, p: Existing) =>
  row.name === p.name &&
  row.description === p.description &&
  row.price === Number(p.price) &&
  row.category === p.category &&
  row.available === (p.available === 1) &&
  sameTaxes(row, p);

/** The sheet's groups for a product differ from its own groups (a sheet without the column changes none). */
const groupsChange = (row: MenuRow, own: readonly string[]) =>
  row.modifierGroups !== null &&
  (row.modifierGroups.length !== own.length || row.modifierGroups.some((name, i) => foldText(name) !== foldText(own[i] ?? '')));

/**
 * Loads a menu sheet in one transaction: a row whose name matches a product (case, accents and
 * spacing aside) updates it, any other row adds a product; products missing from the sheet are
 * left alone. Any error in any row writes nothing. Every created or changed product is audited
 * with its price before and after, and open pickers hear of each change.
 */
export async function importMenu(ctx: WriteContext, user: SessionUser, csv: string, dryRun: boolean): Promise<MenuImportResult> {
  let table: string[][];
  try {
    table = readCsv(csv);
  } catch (error) {
    const line = typeof error === 'object' && error !== null && 'lines' in error && typeof error.lines === 'number' ? error.lines : 1;
    answeredWithoutWrite(ctx);
    return { applied: false, created: 0, updated: 0, unchanged: 0, errors: [{ line, message: MENU_MESSAGES.unreadable }] };
  }
  const parsed = parseMenuTable(table);
  if (!parsed.ok) {
    answeredWithoutWrite(ctx);
    return { applied: false, created: 0, updated: 0, unchanged: 0, errors: parsed.errors.slice(0, MENU_LIMITS.errorsShown) };
  }

  return mutate(ctx, async (trx, emit) => {
    const now = ctx.clock.now();
    const existing = await trx
      .selectFrom('products')
      .select([
        'id',
        'name',
        'description',
        'price',
        'category',
        'available',
        'tax_treatment',
        'sat_product_key',
        'sat_unit_key',
        'ieps_rate_bp',
      ])
      .execute();
    const newTaxes = {
      tax_treatment: await defaultTreatment(trx),
      sat_product_key: DEFAULT_SAT_PRODUCT_KEY,
      sat_unit_key: DEFAULT_SAT_UNIT_KEY,
      ieps_rate_bp: null,
    };
    const byKey = new Map<string, Existing[]>();
    for (const p of existing) byKey.set(menuNameKey(p.name), [...(byKey.get(menuNameKey(p.name)) ?? []), p]);

    // Modifier groups are named, not defined, in the sheet: each name must be one group of the app.
    const groupRows = await trx.selectFrom('modifier_groups').select(['id', 'name']).execute();
    const groupByKey = new Map<string, string[]>();
    for (const g of groupRows) groupByKey.set(foldText(g.name), [...(groupByKey.get(foldText(g.name)) ?? []), g.id]);
    const ownGroups = await productGroupNames(trx);
    const errors = parsed.rows.flatMap((row) => [
      ...((byKey.get(menuNameKey(row.name))?.length ?? 0) > 1 ? [{ line: row.line, message: MENU_MESSAGES.ambiguous(row.name) }] : []),
      ...(row.modifierGroups ?? [])
        .filter((name) => groupByKey.get(foldText(name))?.length !== 1)
        .map((name) => ({ line: row.line, message: MENU_MESSAGES.unknownGroup(name) })),
    ]);
    if (errors.length > 0)
      return { applied: false, created: 0, updated: 0, unchanged: 0, errors: errors.slice(0, MENU_LIMITS.errorsShown) };

    let created = 0;
    let updated = 0;
    let unchanged = 0;
    let linksChanged = false;
    /** Replaces the product's own group links with the sheet's (category links are untouched). */
    const linkGroups = async (productId: string, names: readonly string[]) => {
      await trx.deleteFrom('modifier_links').where('product_id', '=', productId).execute();
      const rows = names.map((name) => ({
        id: newId(),
        group_id: groupByKey.get(foldText(name))![0]!,
        product_id: productId,
        category: null,
      }));
      if (rows.length > 0) await trx.insertInto('modifier_links').values(rows).execute();
      linksChanged = true;
    };
    for (const row of parsed.rows) {
      const match = byKey.get(menuNameKey(row.name))?.[0];
      const values = {
        name: row.name,
        description: row.description,
        price: row.price,
        category: row.category,
        available: row.available ? 1 : 0,
        ...taxValues(row),
        updated_at: now,
      };
      if (!match) {
        created += 1;
        if (dryRun) continue;
        const id = newId();
        await trx
          .insertInto('products')
          .values({ id, ...newTaxes, ...values, image_url: null, created_at: now })
          .execute();
        await audit(trx, now, {
          actor: user,
          action: 'product.create',
          entity: 'product',
          entityId: id,
          data: {
            name: row.name,
            price: row.price,
            category: row.category,
            modifierGroups: row.modifierGroups ?? [],
            source: 'menu-import',
          },
        });
        if (row.modifierGroups?.length) await linkGroups(id, row.modifierGroups);
        emit({ topic: 'products', type: 'product.created', id, version: now });
      } else if (same(row, match) && !groupsChange(row, ownGroups.get(match.id) ?? [])) {
        unchanged += 1;
      } else {
        updated += 1;
        if (dryRun) continue;
        await trx.updateTable('products').set(values).where('id', '=', match.id).execute();
        await audit(trx, now, {
          actor: user,
          action: 'product.update',
          entity: 'product',
          entityId: match.id,
          data: {
            before: { name: match.name, price: Number(match.price), category: match.category, available: match.available === 1 },
            after: { name: row.name, price: row.price, category: row.category, available: row.available },
            ...(row.modifierGroups === null
              ? {}
              : { modifierGroups: { before: ownGroups.get(match.id) ?? [], after: row.modifierGroups } }),
            source: 'menu-import',
          },
        });
        if (groupsChange(row, ownGroups.get(match.id) ?? [])) await linkGroups(match.id, row.modifierGroups ?? []);
        emit({ topic: 'products', type: 'product.updated', id: match.id, version: now });
      }
    }
    if (linksChanged) emit({ topic: 'products', type: 'modifiers.updated', id: 'menu-import', version: now });
    return { applied: !dryRun, created, updated, unchanged, errors: [] };
  });
}
