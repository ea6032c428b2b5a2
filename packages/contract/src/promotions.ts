import { z } from 'zod';
import { CATEGORIES, DAY_MINUTES, PROMOTION_KINDS } from '@comanda/domain';
import { CentsSchema, IdSchema, InputCentsSchema, InstantSchema } from './common.ts';

/** Promotions (happy hour), docs/decisions/0028-promotions.md. */
export const PROMOTION_MESSAGES = {
  name: 'Escribe el nombre de la promoción',
  days: 'Elige al menos un día',
  targets: 'Elige al menos un producto o una categoría',
  percent: 'El porcentaje debe estar entre 1 y 100',
  fixedPrice: 'Escribe el precio de la promoción',
  nxm: 'En NxM se lleva N y se paga M, con M menor que N',
  minute: 'Hora no válida',
} as const;

export const PromotionKindSchema = z.enum(PROMOTION_KINDS);
const MinuteSchema = z
  .number({ error: PROMOTION_MESSAGES.minute })
  .int(PROMOTION_MESSAGES.minute)
  .min(0, PROMOTION_MESSAGES.minute)
  .max(DAY_MINUTES - 1, PROMOTION_MESSAGES.minute);

export const PromotionSchema = z.object({
  id: IdSchema,
  name: z.string(),
  kind: PromotionKindSchema,
  percentBps: z.number().int().nullable(),
  fixedPrice: CentsSchema.nullable(),
  buy: z.number().int().nullable(),
  pay: z.number().int().nullable(),
  days: z.array(z.number().int()),
  startMinute: z.number().int(),
  endMinute: z.number().int(),
  productIds: z.array(z.string()),
  categories: z.array(z.string()),
  active: z.boolean(),
  createdAt: InstantSchema,
  updatedAt: InstantSchema,
});
export type Promotion = z.infer<typeof PromotionSchema>;

export const PromotionBodySchema = z
  .strictObject({
    name: z.string({ error: PROMOTION_MESSAGES.name }).trim().min(1, PROMOTION_MESSAGES.name).max(80),
    kind: PromotionKindSchema,
    percentBps: z.number().int().nullable().default(null),
    fixedPrice: InputCentsSchema.nullable().default(null),
    buy: z.number().int().nullable().default(null),
    pay: z.number().int().nullable().default(null),
    days: z
      .array(z.number().int().min(0).max(6))
      .min(1, PROMOTION_MESSAGES.days)
      .max(7)
      .refine((d) => new Set(d).size === d.length, PROMOTION_MESSAGES.days),
    startMinute: MinuteSchema,
    endMinute: MinuteSchema,
    productIds: z.array(IdSchema).max(200).default([]),
    categories: z.array(z.enum(CATEGORIES)).max(CATEGORIES.length).default([]),
    active: z.boolean().default(true),
  })
  .superRefine((body, ctx) => {
    if (body.productIds.length === 0 && body.categories.length === 0) {
      ctx.addIssue({ code: 'custom', path: ['productIds'], message: PROMOTION_MESSAGES.targets });
    }
    if (body.kind === 'percent' && (body.percentBps === null || body.percentBps < 1 || body.percentBps > 10000)) {
      ctx.addIssue({ code: 'custom', path: ['percentBps'], message: PROMOTION_MESSAGES.percent });
    }
    if (body.kind === 'fixed' && body.fixedPrice === null) {
      ctx.addIssue({ code: 'custom', path: ['fixedPrice'], message: PROMOTION_MESSAGES.fixedPrice });
    }
    if (body.kind === 'nxm' && (body.buy === null || body.pay === null || body.pay < 1 || body.buy <= body.pay || body.buy > 20)) {
      ctx.addIssue({ code: 'custom', path: ['buy'], message: PROMOTION_MESSAGES.nxm });
    }
  });
export type PromotionBody = z.infer<typeof PromotionBodySchema>;

export const PromotionsResponseSchema = z.object({ promotions: z.array(PromotionSchema) });
export const PromotionResponseSchema = z.object({ promotion: PromotionSchema });

/** What the picker shows now: for each product a promotion prices, its name, label and price. */
export const ActivePromotionSchema = z.object({
  productId: IdSchema,
  promotionId: IdSchema,
  name: z.string(),
  kind: PromotionKindSchema,
  label: z.string(),
  listPrice: CentsSchema,
  price: CentsSchema,
});
export type ActivePromotion = z.infer<typeof ActivePromotionSchema>;
export const ActivePromotionsResponseSchema = z.object({ promotions: z.array(ActivePromotionSchema) });

/** Cash close: what promotions took off the orders paid in the shift, by promotion name. */
export const PromotionDiscountsResponseSchema = z.object({
  date: z.string(),
  total: CentsSchema,
  byPromotion: z.array(z.object({ name: z.string(), units: z.number().int(), amount: CentsSchema })),
});
export type PromotionDiscountsResponse = z.infer<typeof PromotionDiscountsResponseSchema>;
