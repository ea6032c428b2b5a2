import type { Generated, Insertable, Selectable, Updateable } from 'kysely';

/**
 * Tables as stored. Timestamps are epoch milliseconds (UTC), booleans 0/1 and money
 * integer centavos, so SQLite and PostgreSQL run the same queries and return the same values.
 */
export interface Database {
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
  drawer_sessions: DrawerSessionsTable;
  drawer_movements: DrawerMovementsTable;
  drawer_payments: DrawerPaymentsTable;
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
  /** Equals table_id while the order is activo, null otherwise: unique, so one active order per table. */
  active_table_id: string | null;
  waiter_id: string | null;
  waiter_name: string | null;
  status: 'activo' | 'pagado' | 'cancelado';
  payment_method: 'efectivo' | 'tarjeta' | 'transferencia' | null;
  people_count: number;
  admin_comments: string | null;
  subtotal: number;
  tip: number;
  total: number;
  version: number;
  created_at: number;
  updated_at: number;
  completed_at: number | null;
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
}

export interface PaymentsTable {
  id: string;
  /** Unique: one paid order has exactly one payment entry. */
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
export type PaymentRow = Selectable<PaymentsTable>;
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
  kind: 'comanda' | 'cancelacion' | 'reimpresion' | 'ticket' | 'prueba';
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
  kind: 'deposito' | 'retiro' | 'gasto';
  amount: number;
  reason: string;
  authorized_by: string;
  authorized_by_name: string;
  created_by: string;
  created_by_name: string;
  created_at: number;
}

/** The cash payments a session holds: one row per payment, so a payment is in at most one session. */
export interface DrawerPaymentsTable {
  payment_id: string;
  session_id: string;
  created_at: number;
}
