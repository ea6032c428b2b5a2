import { z } from 'zod';
import { CATEGORIES } from '@comanda/domain';
import { CentsSchema, IdSchema, InstantSchema } from './common.ts';

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
});
export type Product = z.infer<typeof ProductSchema>;

export const ProductsResponseSchema = z.object({ products: z.array(ProductSchema) });

export const ProductBodySchema = z.strictObject({
  name: z.string().trim().min(1, 'Nombre y precio requeridos').max(120),
  description: z.string().trim().max(500).default(''),
  price: CentsSchema.min(1, 'Nombre y precio requeridos'),
  category: z.enum(CATEGORIES),
  imageUrl: z.string().trim().max(2048).refine((v) => v === '' || /^https?:\/\//.test(v), 'URL inválida').nullable().default(null),
  available: z.boolean().default(true),
});
export type ProductBody = z.infer<typeof ProductBodySchema>;
