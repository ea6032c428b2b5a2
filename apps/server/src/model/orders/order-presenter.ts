import type { Order, OrderItem, Payment } from '@comanda/contract';
import { bpsToFraction, cents, centsOrNull, ZERO, type TaxBreakdown } from '@comanda/domain';
import type { OrderAdjustmentRow, OrderItemRow, OrderRow, PaymentRow } from '../../db/schema.ts';
import { presentAdjustment } from './order-adjustments.ts';
import { balanceOf } from '../checkout/order-payments.ts';
import { readModifiers } from '../modifiers/modifier-store.ts';

/** Orders leave the server field by field, never as raw rows. */
export function presentItem(row: OrderItemRow): OrderItem {
  return {
    id: row.id,
    productId: row.product_id,
    productName: row.product_name,
    productPrice: cents(row.product_price),
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
    voidReason: row.void_reason ?? null,
    voidNote: row.void_note ?? null,
    listPrice: row.list_price === null || row.list_price === undefined ? null : cents(Number(row.list_price)),
    promotionName: row.promotion_name ?? null,
    modifiers: readModifiers(row.modifiers),
  };
}

export function presentPayment(row: PaymentRow): Payment {
  return {
    id: row.id,
    method: row.method,
    amount: cents(row.amount),
    receivedAmount: centsOrNull(row.received_amount),
    change: centsOrNull(row.change_amount),
    tipAmount: cents(row.tip_amount),
    tipPercent: bpsToFraction(row.tip_bps),
    tipBps: row.tip_bps,
    cashierId: row.cashier_id,
    cashierName: row.cashier_name,
    providerPaymentId: row.provider_payment_id,
    createdAt: row.created_at,
    reference: row.reference,
  };
}

export function presentOrder(row: OrderRow, items: OrderItemRow[], payments: PaymentRow[], adjustments: OrderAdjustmentRow[] = []): Order {
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
    splitCount: row.split_count ?? null,
    adminComments: row.admin_comments,
    subtotal: cents(row.subtotal),
    discount: cents(Number(row.discount)),
    comp: cents(Number(row.comp)),
    shareAmount: cents(Number(row.share_amount ?? 0)),
    sharedOut: cents(Number(row.shared_out ?? 0)),
    adjustments: adjustments.map(presentAdjustment),
    tip: cents(row.tip),
    total: cents(row.total),
    tax: null,
    taxBreakdown: row.status === 'pagado' && row.tax_breakdown ? (JSON.parse(row.tax_breakdown) as TaxBreakdown) : null,
    payments: payments.map(presentPayment),
    folio: row.folio === null ? null : Number(row.folio),
    // A paid order owes nothing; an open one owes its amount less the parts already paid.
    balance: row.status === 'activo' ? balanceOf(row, payments) : ZERO,
    version: row.version,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    completedAt: row.completed_at,
    parentOrderId: row.parent_order_id ?? null,
    tabName: row.tab_name ?? null,
    cancelReason: row.cancel_reason ?? null,
  };
}
