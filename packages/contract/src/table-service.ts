import { z } from 'zod';
import { LIMIT_MESSAGES, MAX_QUANTITY, QUANTITY_ERROR } from '@comanda/domain';
import { IdSchema } from './common.ts';
import { OrderSchema } from './orders.ts';

/**
 * Table service moves: transfer an order to a free table, change its
 * waiter, merge it into another occupied table, move chosen units to another table.
 * Strict bodies: a client names tables, waiters, items and unit counts, nothing else.
 */
export const TransferOrderBodySchema = z.strictObject({ tableId: IdSchema });
export type TransferOrderBody = z.infer<typeof TransferOrderBodySchema>;

/** An admin changes the waiter alone; a waiter needs an admin's PIN. */
export const ChangeWaiterBodySchema = z.strictObject({ waiterId: IdSchema, pin: z.string().max(16).optional() });
export type ChangeWaiterBody = z.infer<typeof ChangeWaiterBodySchema>;

export const MergeOrderBodySchema = z.strictObject({ targetTableId: IdSchema });
export type MergeOrderBody = z.infer<typeof MergeOrderBodySchema>;

const units = z.number(QUANTITY_ERROR).int(QUANTITY_ERROR).min(1, QUANTITY_ERROR).max(MAX_QUANTITY, LIMIT_MESSAGES.quantity);

export const MoveLineSchema = z.strictObject({ itemId: IdSchema, quantity: units });
export type MoveLine = z.infer<typeof MoveLineSchema>;

export const MoveItemsBodySchema = z
  .strictObject({
    targetTableId: IdSchema,
    lines: z.array(MoveLineSchema).min(1, 'Elige al menos un producto para mover').max(200, 'Demasiadas líneas'),
  })
  .refine((b) => new Set(b.lines.map((l) => l.itemId)).size === b.lines.length, 'Cada línea se indica una sola vez');
export type MoveItemsBody = z.infer<typeof MoveItemsBodySchema>;

/** Both orders after a move: the one the units left and the one they joined. */
export const MoveItemsResponseSchema = z.object({ source: OrderSchema, target: OrderSchema });
export type MoveItemsResponse = z.infer<typeof MoveItemsResponseSchema>;

/** Who may take over a table: the active waiters (and admins, who also serve tables). */
export const ServiceWaiterSchema = z.object({ id: IdSchema, displayName: z.string(), role: z.enum(['admin', 'waiter']) });
export type ServiceWaiter = z.infer<typeof ServiceWaiterSchema>;
export const ServiceWaitersResponseSchema = z.object({ waiters: z.array(ServiceWaiterSchema) });
