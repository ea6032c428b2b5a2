import { z } from 'zod';
import {
  CHECK_MESSAGES,
  EQUAL_SHARE_MESSAGES,
  EQUAL_SHARES_MAX,
  MAX_QUANTITY,
  QUANTITY_ERROR,
  TAB_NAME_MAX,
  TAB_NAME_MESSAGES,
} from '@comanda/domain';
import { CentsSchema, IdSchema } from './common.ts';
import { OrderSchema } from './orders.ts';

// Separate checks and bar tabs (docs/decisions/0014-checks-are-orders.md): a check is an order.

const quantity = z.number(QUANTITY_ERROR).int(QUANTITY_ERROR).min(1, QUANTITY_ERROR).max(MAX_QUANTITY, QUANTITY_ERROR);

/** Units of one line of the order, moved into a new check. */
export const CheckLineSchema = z.strictObject({ itemId: IdSchema, quantity });

/** One new check: the units it takes from the order. What is not taken stays in the order. */
export const NewCheckSchema = z.strictObject({
  lines: z.array(CheckLineSchema).min(1, CHECK_MESSAGES.emptyCheck).max(200),
});

export const MAX_NEW_CHECKS = 20;

export const SplitChecksBodySchema = z.strictObject({
  checks: z.array(NewCheckSchema).min(1, 'Elige al menos una cuenta nueva').max(MAX_NEW_CHECKS, 'Demasiadas cuentas'),
});
export type SplitChecksBody = z.infer<typeof SplitChecksBodySchema>;

/** Equal shares are separate checks: N checks in all, the order being the first. */
export const EqualSharesBodySchema = z.strictObject({
  count: z
    .number(EQUAL_SHARE_MESSAGES.count)
    .int(EQUAL_SHARE_MESSAGES.count)
    .min(2, EQUAL_SHARE_MESSAGES.count)
    .max(EQUAL_SHARES_MAX, EQUAL_SHARE_MESSAGES.count),
});
export type EqualSharesBody = z.infer<typeof EqualSharesBodySchema>;

/** The order split and its new checks, the order first. */
export const SplitChecksResponseSchema = z.object({ orders: z.array(OrderSchema) });

export const OpenTabBodySchema = z.strictObject({
  name: z.string(TAB_NAME_MESSAGES.required).trim().min(1, TAB_NAME_MESSAGES.required).max(TAB_NAME_MAX, TAB_NAME_MESSAGES.tooLong),
});
export type OpenTabBody = z.infer<typeof OpenTabBodySchema>;

/** One open order of a table (a check, or a tab of the bar), as the order screen lists them. */
export const TableCheckSchema = z.object({
  id: IdSchema,
  tabName: z.string().nullable(),
  waiterName: z.string().nullable(),
  subtotal: CentsSchema,
  itemCount: z.number().int().min(0),
  canCharge: z.boolean(),
  /** The order the table links (tables.current_order_id). */
  current: z.boolean(),
  /** What the check owes before tips: discounts, comps and equal shares applied. */
  total: CentsSchema.optional(),
  /** An equal share of another check (no items of its own). */
  shareAmount: CentsSchema.optional(),
});
export type TableCheck = z.infer<typeof TableCheckSchema>;

export const TableChecksResponseSchema = z.object({ checks: z.array(TableCheckSchema) });
