import type { ColumnType, Generated, Insertable, Selectable, Updateable } from 'kysely';
import type { InventoryTables } from './schema-inventory.ts';
import type { InvoicesTables } from './schema-invoices.ts';

/**
 * Tables as stored (docs/decisions/0003-sqlite-default-postgres-production.md). Timestamps are
 * epoch milliseconds (UTC), booleans 0/1 and money integer centavos, so SQLite and PostgreSQL
 * run the same queries and return the same values.
 */
export interface Database extends InventoryTables, InvoicesTables {
  users: UsersTable;
  sessions: SessionsTable;
  user_tokens: UserTokensTable;
  tables: TablesTable;
  orders: OrdersTable;
  order_items: OrderItemsTable;
  payments: PaymentsTable;
  card_payments: CardPaymentsTable;
  idempotency_keys: IdempotencyKeysTable;
  products: ProductsTable;
  config: ConfigTable;
  audit_log: AuditLogTable;
  shared_devices: SharedDevicesTable;
  printers: PrintersTable;
  print_jobs: PrintJobsTable;
  invoice_receipts: InvoiceReceiptsTable;
  drawer_sessions: DrawerSessionsTable;
  drawer_movements: DrawerMovementsTable;
  drawer_payments: DrawerPaymentsTable;
  order_adjustments: OrderAdjustmentsTable;
  promotions: PromotionsTable;
  throttle_hits: ThrottleHitsTable;
  throttle_backoffs: ThrottleBackoffsTable;
  counters: CountersTable;
  report_sales: ReportSalesTable;
  report_products: ReportProductsTable;
  report_waiters: ReportWaitersTable;
  report_methods: ReportMethodsTable;
  report_losses: ReportLossesTable;
  report_taxes: ReportTaxesTable;
  modifier_groups: ModifierGroupsTable;
  modifier_options: ModifierOptionsTable;
  modifier_links: ModifierLinksTable;
}

export interface UsersTable {
  id: string;
  email: string;
  display_name: string;
  role: 'admin' | 'waiter' | 'kitchen' | 'barra';
  password_hash: string | null;
  pin_hash: string | null;
  active: number;
  created_at: number;
  updated_at: number;
}

export interface SessionsTable {
  token_hash: string;
  user_id: string;
  created_at: number;
  last_seen_at: number;
  expires_at: number;
  /** The shared device a PIN sign-in opened this session on (null: e-mail and password). */
  device_id: string | null;
}

export interface SharedDevicesTable {
  id: string;
  name: string;
  token_hash: string;
  created_by: string;
  created_at: number;
  last_seen_at: number | null;
  revoked_at: number | null;
  idle_lock_seconds: number;
}

export interface UserTokensTable {
  token_hash: string;
  user_id: string;
  purpose: 'reset' | 'invite';
  created_at: number;
  expires_at: number;
  used_at: number | null;
}

export interface TablesTable {
  id: string;
  number: number;
  status: 'libre' | 'ocupada';
  waiter_id: string | null;
  waiter_name: string | null;
  current_order_id: string | null;
  created_at: number;
  updated_at: number;
}

export interface OrdersTable {
  id: string;
  table_id: string;
  table_number: number;
  table_name: string | null;
  /**
   * Equals table_id for the one activo order the table links (tables.current_order_id), null
   * otherwise: unique, so one such order per table. The table's other activo orders (separate
   * checks, the bar's tabs) keep it null.
   */
  active_table_id: string | null;
  waiter_id: string | null;
  waiter_name: string | null;
  status: 'activo' | 'pagado' | 'cancelado';
  payment_method: 'efectivo' | 'tarjeta' | 'transferencia' | null;
  people_count: number;
  admin_comments: string | null;
  subtotal: number;
  /** Sum of the live discounts (order_adjustments), kept by every item change like subtotal. */
  discount: Generated<number>;
  /** Sum of the live comps (cortesías). */
  comp: Generated<number>;
  /** Migration 0015: what this share check owes (an equal share of another check's items); 0 otherwise. */
  share_amount: Generated<number>;
  /** Migration 0015: what this order's share checks owe of its items; 0 otherwise. */
  shared_out: Generated<number>;
  /** Migration 0030: what the checkout's calculator divided the check by when it was paid; null: not divided. */
  split_count: number | null;
  tip: number;
  total: number;
  version: number;
  created_at: number;
  updated_at: number;
  completed_at: number | null;
  /** The order this check was split from (separate checks); null otherwise. */
  parent_order_id: string | null;
  /** A check's or bar tab's name ('Cuenta B', 'Cuenta de Juan'); null for a table's plain order. */
  tab_name: string | null;
  /** Consecutive, gap-free sale number, given by the closing transaction (null until paid). */
  folio: number | null;
  /** Migration 0010: why a cancelled order was cancelled, who cancelled it and whose PIN allowed it. */
  cancel_reason: string | null;
  cancel_note: string | null;
  cancelled_by: string | null;
  cancelled_by_name: string | null;
  cancel_authorized_by: string | null;
  /** Migration 0029: the paid check's TaxBreakdown as JSON, frozen at its close (null while open). */
  tax_breakdown: ColumnType<string | null, string | null | undefined, string | null>;
}

export interface OrderItemsTable {
  id: string;
  order_id: string;
  product_id: string;
  product_name: string;
  product_price: number;
  quantity: number;
  status: 'pendiente' | 'en_preparacion' | 'listo' | 'entregado';
  category: string;
  station: 'cocina' | 'barra';
  notes: string | null;
  is_deleted: number;
  deleted_by: string | null;
  deleted_by_name: string | null;
  deleted_at: number | null;
  created_at: number;
  updated_at: number;
  /** Migration 0010: a voided row (is_deleted = 1) says why; null for SPEC deletes and live rows. */
  void_reason: string | null;
  void_note: string | null;
  /** The admin whose PIN allowed the void (null when none was needed). */
  void_authorized_by: string | null;
  void_authorized_by_name: string | null;
  /** Migration 0018: a row priced by a promotion keeps the list price and the rule (null otherwise). */
  list_price: number | null;
  promotion_id: string | null;
  promotion_name: string | null;
  /** Migration 0016: the chosen options as JSON [{groupName, optionName, priceDelta}]; null for none. */
  modifiers: string | null;
}

export interface PaymentsTable {
  id: string;
  /** An order may hold several payments (mixed payments, equal shares); they sum to its total. */
  order_id: string;
  method: 'efectivo' | 'tarjeta' | 'transferencia';
  amount: number;
  received_amount: number | null;
  change_amount: number | null;
  tip_amount: number;
  tip_bps: number;
  cashier_id: string | null;
  cashier_name: string | null;
  provider_payment_id: string | null;
  created_at: number;
  /** A transfer's reference, as the cashier typed it (optional). */
  reference: string | null;
  /** Migration 0037: a terminal card's type ('credito' | 'debito'); null when unknown (a card entered by hand). */
  card_type: ColumnType<string | null, string | null | undefined, string | null>;
}

export interface CardPaymentsTable {
  id: string;
  order_id: string;
  terminal_id: string;
  method: 'tarjeta' | 'transferencia';
  amount: number;
  tip_amount: number;
  tip_bps: number;
  people_count: number;
  idempotency_key: string;
  provider_id: string | null;
  provider_payment_id: string | null;
  state: string;
  status_detail: string | null;
  attempts: number;
  error: string | null;
  created_by: string | null;
  created_at: number;
  updated_at: number;
  /** What the terminal charged, set on approval (null before; the provider's figure when it gave one). */
  approved_amount: number | null;
  /** The part of the balance this charge pays, before its tip; null: the whole balance (the order closes). */
  part_amount: number | null;
  /** Migration 0030: the calculator's split for the close (null: not divided). people_count 0: the guests stay as set. */
  split_count: number | null;
}

/** Named counters incremented inside transactions (the folio of paid orders). */
export interface CountersTable {
  name: string;
  value: number;
}

export interface IdempotencyKeysTable {
  key: string;
  scope: string;
  request_hash: string;
  status_code: number | null;
  response: string | null;
  created_at: number;
}

export interface ProductsTable {
  id: string;
  name: string;
  description: string;
  price: number;
  category: string;
  image_url: string | null;
  available: number;
  created_at: number;
  updated_at: number;
  /** Migration 0029: 'iva16' | 'iva8' | 'tasa0' | 'exento', SAT's ClaveProdServ and ClaveUnidad, IEPS (null: none). */
  tax_treatment: ColumnType<string, string | undefined, string>;
  sat_product_key: ColumnType<string, string | undefined, string>;
  sat_unit_key: ColumnType<string, string | undefined, string>;
  ieps_rate_bp: ColumnType<number | null, number | null | undefined, number | null>;
}

export interface ConfigTable {
  key: string;
  value: string;
  updated_at: number;
}

export interface AuditLogTable {
  seq: Generated<number>;
  id: string;
  at: number;
  actor_id: string | null;
  actor_name: string | null;
  authorized_by: string | null;
  action: string;
  entity: string;
  entity_id: string | null;
  data: string | null;
}

export type UserRow = Selectable<UsersTable>;
export type TableRow = Selectable<TablesTable>;
export type OrderRow = Selectable<OrdersTable>;
export type OrderItemRow = Selectable<OrderItemsTable>;
/** A payment as a close writes it (its card_type is set after, by the terminal's approval). */
export type PaymentRow = Omit<Selectable<PaymentsTable>, 'card_type'>;
export type ProductRow = Selectable<ProductsTable>;
export type CardPaymentRow = Selectable<CardPaymentsTable>;
export type NewOrderItem = Insertable<OrderItemsTable>;
export type OrderUpdate = Updateable<OrdersTable>;

/** A network thermal printer (ESC/POS over raw TCP, usually port 9100). */
export interface PrintersTable {
  id: string;
  name: string;
  host: string;
  port: number;
  role: 'cocina' | 'barra' | 'caja';
  width: 80 | 58;
  enabled: number;
  /** 1 for the loopback emulators started in demo mode. */
  emulated: number;
  status: 'listo' | 'sin_conexion' | 'error';
  last_error: string | null;
  last_error_at: number | null;
  created_at: number;
  updated_at: number;
}

/** One ticket for one printer, written in the transaction of the change that caused it. */
export interface PrintJobsTable {
  seq: Generated<number>;
  id: string;
  printer_id: string;
  role: 'cocina' | 'barra' | 'caja';
  order_id: string | null;
  kind: 'comanda' | 'cancelacion' | 'reimpresion' | 'ticket' | 'prueba' | 'movimiento' | 'corte';
  /** JSON of the document to render (rendered at delivery for the printer's width). */
  document: string;
  state: 'pending' | 'printing' | 'printed' | 'failed';
  attempts: number;
  next_attempt_at: number;
  /** While 'printing': until when the claim holds; a crashed worker's claim expires. */
  lease_until: number | null;
  /** Random token of the delivery that holds the job while 'printing'. */
  claim: string | null;
  /** An earlier delivery may have reached the printer (dropped mid-job, crash): the next copy says REENVÍO. */
  maybe_printed: number;
  last_error: string | null;
  created_at: number;
  printed_at: number | null;
}

/** A paid check's PAC receipt (the CFDI outbox); see migrations/0032-invoicing.ts. */
export interface InvoiceReceiptsTable {
  order_id: string;
  folio: number;
  /** 'sin_importe': a check that charged nothing before its tip (no CFDI is made). */
  state: 'pendiente' | 'emitido' | 'facturado' | 'en_global' | 'cancelado' | 'sin_importe';
  /** What the receipt charges (the check's total without its tip), centavos. */
  total: number;
  attempts: number;
  next_attempt_at: number;
  /** While a worker sends it: until when its claim holds (a crashed worker's claim expires). */
  lease_until: number | null;
  claim: string | null;
  last_error: string | null;
  pac: string | null;
  pac_receipt_id: string | null;
  receipt_key: string | null;
  self_invoice_url: string | null;
  expires_at: number | null;
  invoice_id: string | null;
  invoice_uuid: string | null;
  created_at: number;
  issued_at: number | null;
  updated_at: number;
  /** Migration 0037: what each SAT product/unit key charged per rate group, frozen when queued (JSON). */
  concept_keys: ColumnType<string | null, string | null | undefined, string | null>;
  /** Migration 0037: when the state was last read from the PAC (the self-invoice sync). */
  synced_at: ColumnType<number | null, number | null | undefined, number | null>;
}

/** A drawer session (turno de caja); see migrations/0004-drawer.ts. Immutable once 'cerrada'. */
export interface DrawerSessionsTable {
  id: string;
  drawer_id: string;
  /** Equals drawer_id while open, null once closed: unique, so one open session per drawer. */
  open_drawer_id: string | null;
  status: 'abierta' | 'cerrada';
  float_amount: number;
  float_count: string;
  opened_by: string;
  opened_by_name: string;
  opened_at: number;
  closed_at: number | null;
  counted_amount: number | null;
  counted_count: string | null;
  expected_amount: number | null;
  difference: number | null;
  figures: string | null;
  comment: string | null;
  cashier_id: string | null;
  cashier_name: string | null;
  admin_id: string | null;
  admin_name: string | null;
  version: Generated<number>;
}

export interface DrawerMovementsTable {
  id: string;
  session_id: string;
  kind: 'deposito' | 'retiro' | 'gasto' | 'propinas';
  amount: number;
  reason: string;
  authorized_by: string;
  authorized_by_name: string;
  created_by: string;
  created_by_name: string;
  created_at: number;
  /** Who received a tip payout ('propinas'); null for other kinds (0013). */
  recipient_id: ColumnType<string | null, string | null | undefined, never>;
  recipient_name: ColumnType<string | null, string | null | undefined, never>;
}

/** The cash payments a session holds: one row per payment, so a payment is in at most one session. */
export interface DrawerPaymentsTable {
  payment_id: string;
  session_id: string;
  created_at: number;
}

/** A discount or comp (cortesía) of an order; see migration 0011-adjustments. */
export interface OrderAdjustmentsTable {
  id: string;
  order_id: string;
  /** null: the whole check. */
  item_id: string | null;
  kind: 'discount' | 'comp';
  units: number | null;
  percent_bps: number | null;
  requested_amount: number | null;
  /** What it takes off the order now, in centavos. */
  amount: number;
  reason: string;
  note: string | null;
  authorized_by: string;
  authorized_by_name: string;
  created_by: string;
  created_by_name: string;
  created_at: number;
  removed_at: number | null;
  removed_by: string | null;
  removed_by_name: string | null;
}
export type OrderAdjustmentRow = Selectable<OrderAdjustmentsTable>;
/** One failure inside a sliding window (auth/throttle.ts); `batch` groups one attempt's rows. */
export interface ThrottleHitsTable {
  batch: string;
  key: string;
  at: number;
}

/** One sign-in back-off key, incremented in place (auth/throttle.ts). */
export interface ThrottleBackoffsTable {
  key: string;
  failures: number;
  last_at: number;
  until_at: number;
}

/**
 * Summary rows of the owner reports (migration 0014), kept
 * by upsert increments in the transaction of each close, void and cancellation. `slot` is the
 * business-local date and hour as YYYYMMDDHH (packages/domain reports.ts).
 */
export interface ReportSalesTable {
  slot: number;
  orders: number;
  items: number;
  subtotal: number;
  discount: number;
  comp: number;
  tips: number;
  total: number;
}

export interface ReportProductsTable {
  slot: number;
  product_id: string;
  product_name: string;
  category: string;
  units: number;
  amount: number;
}

export interface ReportWaitersTable {
  slot: number;
  /** The waiter's id, '' for an order without one. */
  waiter_key: string;
  waiter_name: string;
  orders: number;
  total: number;
  tips: number;
}

export interface ReportMethodsTable {
  slot: number;
  method: string;
  payments: number;
  amount: number;
  tips: number;
}

export interface ReportLossesTable {
  slot: number;
  kind: 'void' | 'cancel' | 'discount' | 'comp';
  /** '' when none was given. */
  reason: string;
  /** Who did it: the user's id ('' when unknown). */
  user_key: string;
  user_name: string;
  count: number;
  units: number;
  amount: number;
}

/** The paid checks' frozen taxes by hour, treatment and IEPS rate ('0': none); migration 0031. */
export interface ReportTaxesTable {
  slot: number;
  treatment: string;
  ieps_rate_bp: string;
  base: number;
  tax: number;
  ieps: number;
  amount: number;
}

/** Migration 0018: happy-hour rules. */
export interface PromotionsTable {
  id: string;
  name: string;
  kind: 'percent' | 'fixed' | 'nxm';
  percent_bps: number | null;
  fixed_price: number | null;
  buy: number | null;
  pay: number | null;
  /** JSON array of weekdays, 0 = domingo. */
  days: string;
  start_minute: number;
  end_minute: number;
  /** JSON arrays. */
  product_ids: string;
  categories: string;
  active: number;
  created_at: number;
  updated_at: number;
}
/** Migration 0016: modifier groups. */
export interface ModifierGroupsTable {
  id: string;
  name: string;
  min_select: number;
  /** null: no upper limit. */
  max_select: number | null;
  position: number;
  created_at: number;
  updated_at: number;
}

export interface ModifierOptionsTable {
  id: string;
  group_id: string;
  name: string;
  price_delta: number;
  available: number;
  position: number;
}

/** A group attached to one product (product_id) or to a whole category (category). */
export interface ModifierLinksTable {
  id: string;
  group_id: string;
  product_id: string | null;
  category: string | null;
}
