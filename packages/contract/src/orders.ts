import { z } from 'zod';
import { CATEGORIES, ITEM_STATUSES, LIMIT_MESSAGES, MAX_QUANTITY, ORDER_STATUSES, PAYMENT_METHODS, QUANTITY_ERROR } from '@comanda/domain';
import { CentsSchema, IdSchema, InstantSchema } from './common.ts';

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
});
export type OrderItem = z.infer<typeof OrderItemSchema>;

export const PaymentSchema = z.object({
  id: IdSchema,
  method: PaymentMethodSchema,
  amount: CentsSchema,
  receivedAmount: CentsSchema.nullable(),
  change: CentsSchema.nullable(),
  tipAmount: CentsSchema,
  /** Stored as a fraction, as the spec says (0.15 for 15 %). */
  tipPercent: z.number(),
  cashierId: z.string().nullable(),
  cashierName: z.string().nullable(),
  providerPaymentId: z.string().nullable(),
  createdAt: InstantSchema,
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
  adminComments: z.string().nullable(),
  subtotal: CentsSchema,
  tip: CentsSchema,
  total: CentsSchema,
  tax: z.null(),
  payments: z.array(PaymentSchema),
  version: z.number().int(),
  createdAt: InstantSchema,
  updatedAt: InstantSchema,
  completedAt: InstantSchema.nullable(),
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
