import { z } from 'zod';
import { CATEGORIES, isCategoryOrder, PRODUCT_REQUIRED_ERROR } from '@comanda/domain';
import { CentsSchema, FIELD_MESSAGES, IdSchema, InstantSchema } from './common.ts';
import { ProductTaxFieldsSchema, TaxTreatmentSchema } from './tax.ts';

export const PRODUCT_REQUIRED = PRODUCT_REQUIRED_ERROR;

export const ProductSchema = z.object({
  id: IdSchema,
  name: z.string(),
  description: z.string(),
  price: CentsSchema,
  category: z.string(),
  imageUrl: z.string().nullable(),
  available: z.boolean(),
  createdAt: InstantSchema,
  updatedAt: InstantSchema,
  /** Taxes (IVA included in the price) and SAT keys; optional so older answers still parse. */
  taxTreatment: TaxTreatmentSchema.optional(),
  satProductKey: z.string().optional(),
  satUnitKey: z.string().optional(),
  iepsRateBp: z.number().int().nullable().optional(),
});
export type Product = z.infer<typeof ProductSchema>;

export const ProductsResponseSchema = z.object({ products: z.array(ProductSchema) });
export const ProductResponseSchema = z.object({ product: ProductSchema });

export const ProductsQuerySchema = z.strictObject({
  available: z.enum(['0', '1']).optional(),
});

export const ProductBodySchema = z.strictObject({
  // A missing or zero price counts like an empty name: the spec's one message for both.
  name: z.string({ error: PRODUCT_REQUIRED }).trim().min(1, PRODUCT_REQUIRED).max(120),
  description: z.string().trim().max(500).default(''),
  price: z.number({ error: PRODUCT_REQUIRED }).int('El precio debe estar en centavos').min(1, PRODUCT_REQUIRED).max(100_000_000_00),
  category: z.enum(CATEGORIES),
  imageUrl: z
    .string()
    .trim()
    .max(2048)
    .refine((v) => v === '' || /^https?:\/\//.test(v), FIELD_MESSAGES.invalidUrl)
    .nullable()
    .default(null),
  available: z.boolean().default(true),
  // Omitted: the site's default treatment and SAT's keys for a new product, unchanged on an edit.
  ...ProductTaxFieldsSchema,
});
export type ProductBody = z.infer<typeof ProductBodySchema>;

export const ProductAvailabilityBodySchema = z.strictObject({ available: z.boolean() });

// The picker's "Más vendidos" row and the admin's order of categories.
export const TopSellersResponseSchema = z.object({
  /** Product ids, most units sold in the last days first (available products only). */
  productIds: z.array(IdSchema),
});
export type TopSellersResponse = z.infer<typeof TopSellersResponseSchema>;

export const CATEGORY_ORDER_INVALID = 'El orden debe incluir cada categoría una sola vez';
export const MenuConfigSchema = z.object({ categoryOrder: z.array(z.string()) });
export type MenuConfig = z.infer<typeof MenuConfigSchema>;
export const MenuConfigBodySchema = z.strictObject({
  categoryOrder: z.array(z.enum(CATEGORIES)).refine((list) => isCategoryOrder(list), CATEGORY_ORDER_INVALID),
});
export type MenuConfigBody = z.infer<typeof MenuConfigBodySchema>;
