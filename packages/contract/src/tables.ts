import { z } from 'zod';
import { TABLE_NUMBER_ERROR } from './texts.ts';
import { CentsSchema, IdSchema, InstantSchema } from './common.ts';
import { OrderStatusSchema } from './orders.ts';

/** What a table card needs about its active order, computed by the server. */
export const TableOrderSummarySchema = z.object({
  id: IdSchema,
  tableName: z.string().nullable(),
  waiterName: z.string().nullable(),
  status: OrderStatusSchema,
  itemCount: z.number().int(),
  lastItemName: z.string().nullable(),
  subtotal: CentsSchema,
  createdAt: InstantSchema,
  /** True when the payment gate is open: at least one item and all delivered. */
  canCharge: z.boolean(),
  version: z.number().int(),
  /** Approved card charges on this order still waiting for an admin (badge 'Cobro por revisar'). */
  cardReviews: z.number().int().min(0),
  /** The check's or bar tab's name, when it has one (docs/decisions/0014-checks-are-orders.md). */
  tabName: z.string().nullable().optional(),
  /** What the order owes before tips (discounts, comps and equal shares applied). */
  total: CentsSchema.optional(),
});

export const TableSchema = z.object({
  id: IdSchema,
  number: z.number().int(),
  status: z.enum(['libre', 'ocupada']),
  waiterId: z.string().nullable(),
  waiterName: z.string().nullable(),
  currentOrderId: z.string().nullable(),
  updatedAt: InstantSchema,
  /** Present when the table links an active order the caller may see. */
  order: TableOrderSummarySchema.nullable(),
  /** The table's other open orders the caller may see: separate checks, the bar's tabs. */
  extraOrders: z.array(TableOrderSummarySchema).optional(),
});
export type Table = z.infer<typeof TableSchema>;
export type TableOrderSummary = z.infer<typeof TableOrderSummarySchema>;

export const TablesResponseSchema = z.object({ tables: z.array(TableSchema) });

export const TableResponseSchema = z.object({ table: TableSchema });
export const TableIdParamsSchema = z.strictObject({ tableId: IdSchema });

/** Table numbers: 0 is the bar, the rest are the floor's own numbering. */
export const TableNumberBodySchema = z.strictObject({
  number: z.number(TABLE_NUMBER_ERROR).int(TABLE_NUMBER_ERROR).min(0, TABLE_NUMBER_ERROR).max(999, TABLE_NUMBER_ERROR),
});
export type TableNumberBody = z.infer<typeof TableNumberBodySchema>;
