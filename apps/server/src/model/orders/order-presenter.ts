import type { Order, OrderItem, Payment } from '@comanda/contract';
import { bpsToFraction } from '@comanda/domain';
import type { OrderItemRow, OrderRow, PaymentRow } from '../../db/schema.ts';

/** Orders leave the server field by field, never as raw rows. */
export function presentItem(row: OrderItemRow): OrderItem {
  return {
    id: row.id,
    productId: row.product_id,
    productName: row.product_name,
    productPrice: row.product_price,
    quantity: row.quantity,
    status: row.status,
    category: row.category,
    station: row.station,
    notes: row.notes,
    isDeleted: row.is_deleted === 1,
    deletedBy: row.deleted_by,
    deletedByName: row.deleted_by_name,
    deletedAt: row.deleted_at,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

export function presentPayment(row: PaymentRow): Payment {
  return {
    id: row.id,
    method: row.method,
    amount: row.amount,
    receivedAmount: row.received_amount,
    change: row.change_amount,
    tipAmount: row.tip_amount,
    tipPercent: bpsToFraction(row.tip_bps),
    cashierId: row.cashier_id,
    cashierName: row.cashier_name,
    providerPaymentId: row.provider_payment_id,
    createdAt: row.created_at,
  };
}

export function presentOrder(row: OrderRow, items: OrderItemRow[], payments: PaymentRow[]): Order {
  return {
    id: row.id,
    tableId: row.table_id,
    tableNumber: row.table_number,
    tableName: row.table_name,
    waiterId: row.waiter_id,
    waiterName: row.waiter_name,
    items: items.map(presentItem),
    status: row.status,
    paymentMethod: row.payment_method,
    peopleCount: row.people_count,
    adminComments: row.admin_comments,
    subtotal: row.subtotal,
    tip: row.tip,
    total: row.total,
    tax: null,
    payments: payments.map(presentPayment),
    version: row.version,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    completedAt: row.completed_at,
  };
}
