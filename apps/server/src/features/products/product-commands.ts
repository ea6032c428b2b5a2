import type { Product, ProductBody, SessionUser } from '@comanda/contract';
import { mutate } from '../../http/transaction.ts';
import { audit } from '../../http/audit.ts';
import { newId } from '../../http/ids.ts';
import { forbidden } from '../../http/errors.ts';
import { MESSAGES } from '../../http/messages.ts';
import { DEFAULT_SAT_PRODUCT_KEY, DEFAULT_SAT_UNIT_KEY, mayMarkAvailability } from '@comanda/domain';
import { defaultTreatment } from '../../model/fiscal-store.ts';
import { presentProduct, requireProduct } from './product-store.ts';
import type { WriteContext } from '../../http/request-context.ts';
import type { ProductRow } from '../../db/schema.ts';

const imageOf = (url: string | null) => (url ? url : null);

export function createProduct(ctx: WriteContext, user: SessionUser, body: ProductBody): Promise<Product> {
  return mutate(ctx, async (trx, emit) => {
    const now = ctx.clock.now();
    const row = {
      id: newId(),
      ...productFields(body),
      tax_treatment: body.taxTreatment ?? (await defaultTreatment(trx)),
      sat_product_key: body.satProductKey ?? DEFAULT_SAT_PRODUCT_KEY,
      sat_unit_key: body.satUnitKey ?? DEFAULT_SAT_UNIT_KEY,
      ieps_rate_bp: body.iepsRateBp ?? null,
      created_at: now,
      updated_at: now,
    };
    await trx.insertInto('products').values(row).execute();
    await audit(trx, now, {
      actor: user,
      action: 'product.create',
      entity: 'product',
      entityId: row.id,
      data: { name: row.name, price: row.price, category: row.category, ...taxAudit(row) },
    });
    emit({ topic: 'products', type: 'product.created', id: row.id, version: now });
    return presentProduct(row);
  });
}

/** The tax fields an edit sets: only those the form sent (an omitted one keeps what the product has). */
function taxChanges(body: ProductBody) {
  return {
    ...(body.taxTreatment !== undefined ? { tax_treatment: body.taxTreatment } : {}),
    ...(body.satProductKey !== undefined ? { sat_product_key: body.satProductKey } : {}),
    ...(body.satUnitKey !== undefined ? { sat_unit_key: body.satUnitKey } : {}),
    ...(body.iepsRateBp !== undefined ? { ieps_rate_bp: body.iepsRateBp } : {}),
  };
}

const taxAudit = (row: Pick<ProductRow, 'tax_treatment' | 'sat_product_key' | 'sat_unit_key' | 'ieps_rate_bp'>) => ({
  taxTreatment: row.tax_treatment,
  satProductKey: row.sat_product_key,
  satUnitKey: row.sat_unit_key,
  iepsRateBp: row.ieps_rate_bp,
});

/** The catalogue columns an admin's form sets, on create and on edit alike. */
function productFields(body: ProductBody) {
  return {
    name: body.name,
    description: body.description,
    price: body.price,
    category: body.category,
    image_url: imageOf(body.imageUrl),
    available: body.available ? 1 : 0,
  };
}

export function updateProduct(ctx: WriteContext, user: SessionUser, id: string, body: ProductBody): Promise<Product> {
  return mutate(ctx, async (trx, emit) => {
    const before = await requireProduct(trx, id);
    const now = ctx.clock.now();
    const changes = { ...productFields(body), ...taxChanges(body), updated_at: now };
    await trx.updateTable('products').set(changes).where('id', '=', id).execute();
    await audit(trx, now, {
      actor: user,
      action: 'product.update',
      entity: 'product',
      entityId: id,
      data: {
        before: {
          name: before.name,
          price: Number(before.price),
          category: before.category,
          available: before.available === 1,
          ...taxAudit(before),
        },
        after: {
          name: body.name,
          price: body.price,
          category: body.category,
          available: body.available,
          ...taxAudit({ ...before, ...changes }),
        },
      },
    });
    emit({ topic: 'products', type: 'product.updated', id, version: now });
    return presentProduct({ ...before, ...changes });
  });
}

export function setProductAvailability(ctx: WriteContext, user: SessionUser, id: string, available: boolean): Promise<Product> {
  return mutate(ctx, async (trx, emit) => {
    const before = await requireProduct(trx, id);
    // The kitchen and the bar mark only their own station's products; the admin any.
    if (!mayMarkAvailability(user.role, before.category)) throw forbidden(MESSAGES.menu.notYourStation);
    const now = ctx.clock.now();
    await trx
      .updateTable('products')
      .set({ available: available ? 1 : 0, updated_at: now })
      .where('id', '=', id)
      .execute();
    await audit(trx, now, {
      actor: user,
      action: 'product.availability',
      entity: 'product',
      entityId: id,
      data: { name: before.name, available },
    });
    emit({ topic: 'products', type: 'product.updated', id, version: now });
    return presentProduct({ ...before, available: available ? 1 : 0, updated_at: now });
  });
}

/** Hard delete: order items keep their own copy of name, price and category, so history is untouched. */
export function deleteProduct(ctx: WriteContext, user: SessionUser, id: string): Promise<void> {
  return mutate(ctx, async (trx, emit) => {
    const before = await requireProduct(trx, id);
    const now = ctx.clock.now();
    await trx.deleteFrom('products').where('id', '=', id).execute();
    await audit(trx, now, {
      actor: user,
      action: 'product.delete',
      entity: 'product',
      entityId: id,
      data: { name: before.name, price: Number(before.price), category: before.category },
    });
    emit({ topic: 'products', type: 'product.deleted', id, version: now });
  });
}
