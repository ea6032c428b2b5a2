import { z } from 'zod';
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
});
export type Table = z.infer<typeof TableSchema>;
export type TableOrderSummary = z.infer<typeof TableOrderSummarySchema>;

export const TablesResponseSchema = z.object({ tables: z.array(TableSchema) });
