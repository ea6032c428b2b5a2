import { z } from 'zod';
import { IdSchema, InstantSchema } from './common.ts';
import { ItemStatusSchema, OrderItemSchema, StationSchema } from './orders.ts';
import { ChosenModifierSchema } from './modifiers.ts';

export const BoardStationFilterSchema = z.enum(['cocina', 'barra', 'all']);
export type BoardStationFilter = z.infer<typeof BoardStationFilterSchema>;

/**
 * 'board' hides delivered items after the retention window (SPEC §9); 'panel' (the admin
 * order panel) keeps every delivered item of an active order so its Entregado filter is complete.
 */
export const BoardViewSchema = z.enum(['board', 'panel']);

export const BoardQuerySchema = z.object({
  station: BoardStationFilterSchema.default('all'),
  view: BoardViewSchema.default('board'),
});
export type BoardQuery = z.infer<typeof BoardQuerySchema>;

/** One item of an active order as the kitchen, the bar and the admin panel see it. */
export const BoardItemSchema = z.object({
  id: IdSchema,
  orderId: IdSchema,
  tableId: IdSchema,
  tableNumber: z.number().int(),
  tableName: z.string().nullable(),
  waiterName: z.string().nullable(),
  productName: z.string(),
  quantity: z.number().int(),
  notes: z.string().nullable(),
  category: z.string(),
  station: StationSchema,
  status: ItemStatusSchema,
  createdAt: InstantSchema,
  updatedAt: InstantSchema,
  /** A voided item shown as CANCELADO for a few minutes so the station stops making it. */
  cancelled: z.boolean().optional(),
  voidReason: z.string().nullable().optional(),
  /** The chosen modifier options, shown as plainly as the notes. */
  modifiers: z.array(ChosenModifierSchema).optional(),
});
export type BoardItem = z.infer<typeof BoardItemSchema>;

/** `now` is the server's clock, so screens count waiting minutes even on a device whose clock is off. */
export const BoardResponseSchema = z.object({ items: z.array(BoardItemSchema), now: InstantSchema });
export type BoardResponse = z.infer<typeof BoardResponseSchema>;

export const ItemStatusParamsSchema = z.strictObject({ orderId: IdSchema, itemId: IdSchema });
export const ItemStatusBodySchema = z.strictObject({ status: ItemStatusSchema });
export type ItemStatusBody = z.infer<typeof ItemStatusBodySchema>;
export const ItemStatusResponseSchema = z.object({ item: OrderItemSchema });
