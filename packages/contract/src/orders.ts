import { z } from 'zod';
import { CATEGORIES, ITEM_STATUSES, LIMIT_MESSAGES, MAX_QUANTITY, ORDER_STATUSES, PAYMENT_METHODS, QUANTITY_ERROR } from '@comanda/domain';
import { CentsSchema, IdSchema, InstantSchema } from './common.ts';
import { OrderAdjustmentSchema } from './adjustments.ts';
import { ChosenModifierSchema } from './modifiers.ts';
import { TaxBreakdownSchema } from './tax.ts';

export const ItemStatusSchema = z.enum(ITEM_STATUSES);
export const OrderStatusSchema = z.enum(ORDER_STATUSES);
export const PaymentMethodSchema = z.enum(PAYMENT_METHODS);
export const CategorySchema = z.enum(CATEGORIES);
export const StationSchema = z.enum(['cocina', 'barra']);

export const OrderItemSchema = z.object({
  id: IdSchema,
  productId: z.string(),
  productName: z.string(),
  productPrice: CentsSchema,
  quantity: z.number().int(),
  status: ItemStatusSchema,
  category: z.string(),
  station: StationSchema,
  notes: z.string().nullable(),
  isDeleted: z.boolean(),
  deletedBy: z.string().nullable(),
  deletedByName: z.string().nullable(),
  deletedAt: InstantSchema.nullable(),
  createdAt: InstantSchema,
  updatedAt: InstantSchema,
  /** A voided row (isDeleted) says why; null for SPEC deletes and live rows. */
  voidReason: z.string().nullable().optional(),
  voidNote: z.string().nullable().optional(),
  /** Promotions: a row priced by a promotion keeps the list price and the promotion's name. */
  listPrice: CentsSchema.nullable().optional(),
  promotionName: z.string().nullable().optional(),
  /** The chosen modifier options, empty for none; productPrice already includes their deltas. */
  modifiers: z.array(ChosenModifierSchema).default([]),
});
export type OrderItem = z.infer<typeof OrderItemSchema>;

export const PaymentSchema = z.object({
  id: IdSchema,
  method: PaymentMethodSchema,
  amount: CentsSchema,
  receivedAmount: CentsSchema.nullable(),
  change: CentsSchema.nullable(),
  tipAmount: CentsSchema,
  /** Stored as a fraction, as the spec says (0.15 for 15 %): tipBps for display and arithmetic. */
  tipPercent: z.number(),
  /** The tip rate in basis points (1500 = 15 %), the one representation screens compute with. */
  tipBps: z.number().int(),
  cashierId: z.string().nullable(),
  cashierName: z.string().nullable(),
  providerPaymentId: z.string().nullable(),
  createdAt: InstantSchema,
  /** A transfer's reference (optional); null for cash and card. */
  reference: z.string().nullable(),
});
export type Payment = z.infer<typeof PaymentSchema>;

export const OrderSchema = z.object({
  id: IdSchema,
  tableId: IdSchema,
  tableNumber: z.number().int(),
  tableName: z.string().nullable(),
  waiterId: z.string().nullable(),
  waiterName: z.string().nullable(),
  items: z.array(OrderItemSchema),
  status: OrderStatusSchema,
  paymentMethod: PaymentMethodSchema.nullable(),
  peopleCount: z.number().int(),
  /** What the checkout's calculator divided the paid check by; null: not divided (optional for older answers). */
  splitCount: z.number().int().nullable().optional(),
  adminComments: z.string().nullable(),
  subtotal: CentsSchema,
  /** Discounts and comps (cortesías) taken off the subtotal; optional so older payloads still parse. */
  discount: CentsSchema.optional(),
  comp: CentsSchema.optional(),
  /** Equal shares: what this share check owes of another check's items, and what
   * this order's share checks owe of its items. Owed = subtotal − discount − comp − sharedOut + shareAmount. */
  shareAmount: CentsSchema.optional(),
  sharedOut: CentsSchema.optional(),
  adjustments: z.array(OrderAdjustmentSchema).optional(),
  tip: CentsSchema,
  total: CentsSchema,
  tax: z.null(),
  /** The taxes included in what a paid check charged, frozen at its close; null while open. */
  taxBreakdown: TaxBreakdownSchema.nullable().optional(),
  payments: z.array(PaymentSchema),
  /** Consecutive sale number given when the order is paid (null until then). */
  folio: z.number().int().nullable(),
  /** What is still owed before tips: the amount owed minus the parts already paid. */
  balance: CentsSchema,
  version: z.number().int(),
  createdAt: InstantSchema,
  updatedAt: InstantSchema,
  completedAt: InstantSchema.nullable(),
  /** Separate checks: the order this check was split from (optional so older answers still parse). */
  parentOrderId: z.string().nullable().optional(),
  /** A check's or bar tab's name ('Cuenta B', 'Cuenta de Juan'); null for a table's plain order. */
  tabName: z.string().nullable().optional(),
  /** Set on a cancelled order: the reason given (null for an empty order cancelled without one). */
  cancelReason: z.string().nullable().optional(),
});
export type Order = z.infer<typeof OrderSchema>;

export const OrderResponseSchema = z.object({ order: OrderSchema });

// Request bodies of the order routes. Strict: a client cannot slip in a price, status or total.
const quantity = z.number(QUANTITY_ERROR).int(QUANTITY_ERROR).min(1, QUANTITY_ERROR).max(MAX_QUANTITY, LIMIT_MESSAGES.quantity);

const PEOPLE_ERROR = 'La cantidad de personas debe ser al menos 1';

export const OrderIdParamsSchema = z.strictObject({ orderId: IdSchema });
export const OrderItemParamsSchema = z.strictObject({ orderId: IdSchema, itemId: IdSchema });

export const AddItemBodySchema = z.strictObject({
  productId: IdSchema,
  quantity,
  notes: z.string().max(300, 'Las notas son demasiado largas').nullable().optional(),
  /** The chosen modifier options by id; the server checks them and prices the line itself. */
  optionIds: z.array(IdSchema).max(50).optional(),
});
export type AddItemBody = z.infer<typeof AddItemBodySchema>;

export const AddUnitsBodySchema = z.strictObject({ quantity });
export type AddUnitsBody = z.infer<typeof AddUnitsBodySchema>;

export const DeleteItemBodySchema = z.strictObject({ pin: z.string().max(16) });
export type DeleteItemBody = z.infer<typeof DeleteItemBodySchema>;

export const UpdateOrderBodySchema = z
  .strictObject({
    peopleCount: z.number(PEOPLE_ERROR).int(PEOPLE_ERROR).min(1, PEOPLE_ERROR).max(999, 'La cantidad máxima de personas es 999').optional(),
    tableName: z.string().max(80, 'El nombre de la mesa es demasiado largo').nullable().optional(),
    adminComments: z.string().max(2000, 'Los comentarios son demasiado largos').nullable().optional(),
  })
  .refine((b) => b.peopleCount !== undefined || b.tableName !== undefined || b.adminComments !== undefined, 'Nada que actualizar');
export type UpdateOrderBody = z.infer<typeof UpdateOrderBodySchema>;
