import type { Role } from '@comanda/contract';

/**
 * Who may call what: the access matrix written as data, reviewed against SPEC.md §6 (roles and
 * permissions) and the routes added since (docs/ARCHITECTURE.md). It is the rule; the code's own
 * access declarations are checked against it (access-matrix.test.ts), never the other way round.
 *
 * Y: the caller passes the access check (any answer but 401/403). N: refused — 403 for a signed-in
 * role, 401 without a session. A deactivated user's old session counts as anonymous.
 * Every /api route the app declares must have a row here (a new route fails the test until it is added).
 */
export type Caller = Role | 'anonymous';
export const CALLERS = ['admin', 'waiter', 'kitchen', 'barra', 'anonymous'] as const satisfies readonly Caller[];

const Y = true;
const N = false;
type Row = readonly [route: string, admin: boolean, waiter: boolean, kitchen: boolean, barra: boolean, anonymous: boolean];

// prettier-ignore
const ROWS: readonly Row[] = [
  // route                                                  admin waiter kitchen barra anonymous
  // Signing in and out is open to anyone; each handler answers for its own session (SPEC §6, §7).
  ['POST /api/auth/login',                                  Y,    Y,     Y,      Y,    Y],
  ['POST /api/auth/logout',                                 Y,    Y,     Y,      Y,    Y],
  // Who am I: without a session the answer is 401 (the screens then show the sign-in).
  ['GET /api/auth/me',                                      Y,    Y,     Y,      Y,    N],
  ['POST /api/auth/pin-login',                              Y,    Y,     Y,      Y,    Y],
  ['POST /api/auth/reset-password',                         Y,    Y,     Y,      Y,    Y],
  ['GET /api/auth/reset-password/:token',                   Y,    Y,     Y,      Y,    Y],
  // A crashed screen reports itself before or after sign-in: the one write open to anyone besides auth.
  ['POST /api/client-errors',                               Y,    Y,     Y,      Y,    Y],
  // Operations: health is public; backups are the admin's.
  ['GET /api/health',                                       Y,    Y,     Y,      Y,    Y],
  ['GET /api/backups',                                      Y,    N,     N,      N,    N],
  ['GET /api/openapi.json',                                 Y,    Y,     Y,      Y,    Y],
  // Live events: any signed-in screen (each topic checks its own audience).
  ['GET /api/live',                                         Y,    Y,     Y,      Y,    N],
  // Settings: everyone signed in reads them (screens show the business name, the void reasons); only the admin changes them.
  ['GET /api/config/general',                               Y,    Y,     Y,      Y,    N],
  ['PUT /api/config/general',                               Y,    N,     N,      N,    N],
  // The picker's order of categories: everyone reads it, the admin sets it.
  ['GET /api/config/menu',                                  Y,    Y,     Y,      Y,    N],
  ['PUT /api/config/menu',                                  Y,    N,     N,      N,    N],
  ['GET /api/config/public',                                Y,    Y,     Y,      Y,    Y],
  // Datos fiscales: the admin's alone.
  ['GET /api/config/fiscal',                                Y,    N,     N,      N,    N],
  ['PUT /api/config/fiscal',                                Y,    N,     N,      N,    N],
  ['GET /api/config/void-reasons',                          Y,    Y,     Y,      Y,    N],
  ['PUT /api/config/void-reasons',                          Y,    N,     N,      N,    N],
  // Products: every screen reads the menu; the admin manages it (SPEC §6 "manages products").
  ['GET /api/products',                                     Y,    Y,     Y,      Y,    N],
  ['POST /api/products',                                    Y,    N,     N,      N,    N],
  ['DELETE /api/products/:id',                              Y,    N,     N,      N,    N],
  ['PUT /api/products/:id',                                 Y,    N,     N,      N,    N],
  // Agotado in one tap: the kitchen and the bar too, each only its own station's products (the handler checks).
  ['PATCH /api/products/:id/availability',                  Y,    N,     Y,      Y,    N],
  // The picker's "Más vendidos" row: whoever takes orders.
  ['GET /api/products/top-sellers',                         Y,    Y,     N,      N,    N],
  // Modifier groups: waiters read them for the picker; the admin manages them.
  ['GET /api/modifier-groups',                              Y,    Y,     N,      N,    N],
  ['POST /api/modifier-groups',                             Y,    N,     N,      N,    N],
  ['PUT /api/modifier-groups/:id',                          Y,    N,     N,      N,    N],
  ['DELETE /api/modifier-groups/:id',                       Y,    N,     N,      N,    N],
  ['PATCH /api/modifier-options/:id/availability',          Y,    N,     N,      N,    N],
  // Inventario: the admin runs it; the bar reads the insumos, counts and records its merma.
  ['GET /api/inventory/insumos',                            Y,    N,     N,      Y,    N],
  ['POST /api/inventory/insumos',                           Y,    N,     N,      N,    N],
  ['PUT /api/inventory/insumos/:id',                        Y,    N,     N,      N,    N],
  ['DELETE /api/inventory/insumos/:id',                     Y,    N,     N,      N,    N],
  ['GET /api/inventory/recipes',                            Y,    N,     N,      N,    N],
  ['PUT /api/inventory/recipes/products/:id',               Y,    N,     N,      N,    N],
  ['PUT /api/inventory/recipes/options/:id',                Y,    N,     N,      N,    N],
  ['POST /api/inventory/purchases',                         Y,    N,     N,      N,    N],
  ['POST /api/inventory/purchases/cfdi/preview',            Y,    N,     N,      N,    N],
  ['POST /api/inventory/purchases/cfdi',                    Y,    N,     N,      N,    N],
  ['POST /api/inventory/transfers',                         Y,    N,     N,      N,    N],
  ['POST /api/inventory/merma',                             Y,    N,     N,      Y,    N],
  ['POST /api/inventory/counts',                            Y,    N,     N,      Y,    N],
  ['GET /api/inventory/variance',                           Y,    N,     N,      N,    N],
  ['GET /api/inventory/variance.xlsx',                      Y,    N,     N,      N,    N],
  ['GET /api/inventory/low-stock',                          Y,    N,     N,      N,    N],
  // Users: the admin adds, changes, activates or deactivates them and sends reset links (SPEC §6).
  ['GET /api/users',                                        Y,    N,     N,      N,    N],
  ['POST /api/users',                                       Y,    N,     N,      N,    N],
  ['PATCH /api/users/:id',                                  Y,    N,     N,      N,    N],
  ['PATCH /api/users/:id/active',                           Y,    N,     N,      N,    N],
  ['POST /api/users/:id/reset',                             Y,    N,     N,      N,    N],
  ['POST /api/users/:id/unlock',                            Y,    N,     N,      N,    N],
  // Tables: waiters open free tables and work their own; the admin manages the floor (SPEC §6).
  ['GET /api/tables',                                       Y,    Y,     N,      N,    N],
  ['POST /api/tables',                                      Y,    N,     N,      N,    N],
  ['DELETE /api/tables/:tableId',                           Y,    N,     N,      N,    N],
  ['PATCH /api/tables/:tableId',                            Y,    N,     N,      N,    N],
  ['GET /api/tables/:tableId/checks',                       Y,    Y,     N,      N,    N],
  ['POST /api/tables/:tableId/open',                        Y,    Y,     N,      N,    N],
  ['GET /api/tables/:tableId/order',                        Y,    Y,     N,      N,    N],
  ['POST /api/tables/:tableId/release',                     Y,    N,     N,      N,    N],
  ['POST /api/tables/:tableId/tabs',                        Y,    Y,     N,      N,    N],
  // Orders: the floor (admin, waiter); kitchen and barra only move item statuses (SPEC §6).
  ['GET /api/orders/:orderId',                              Y,    Y,     N,      N,    N],
  ['PATCH /api/orders/:orderId',                            Y,    Y,     N,      N,    N],
  ['POST /api/orders/:orderId/adjustments',                 Y,    Y,     N,      N,    N],
  ['DELETE /api/orders/:orderId/adjustments/:adjustmentId', Y,    Y,     N,      N,    N],
  ['POST /api/orders/:orderId/cancel',                      Y,    Y,     N,      N,    N],
  ['POST /api/orders/:orderId/checks',                      Y,    Y,     N,      N,    N],
  ['POST /api/orders/:orderId/shares',                      Y,    Y,     N,      N,    N],
  ['POST /api/orders/:orderId/close',                       Y,    Y,     N,      N,    N],
  ['GET /api/orders/:orderId/taxes',                        Y,    Y,     N,      N,    N],
  ['POST /api/orders/:orderId/deliver',                     Y,    Y,     N,      N,    N],
  ['POST /api/orders/:orderId/items',                       Y,    Y,     N,      N,    N],
  ['POST /api/orders/:orderId/items/:itemId/delete',        Y,    Y,     N,      N,    N],
  ['PATCH /api/orders/:orderId/items/:itemId/status',       Y,    N,     Y,      Y,    N],
  ['POST /api/orders/:orderId/items/:itemId/units',         Y,    Y,     N,      N,    N],
  ['POST /api/orders/:orderId/items/:itemId/void',          Y,    Y,     N,      N,    N],
  ['POST /api/orders/:orderId/merge',                       Y,    Y,     N,      N,    N],
  ['POST /api/orders/:orderId/move-items',                  Y,    Y,     N,      N,    N],
  ['POST /api/orders/:orderId/payments',                    Y,    Y,     N,      N,    N],
  ['POST /api/orders/:orderId/reprint',                     Y,    Y,     N,      N,    N],
  ['POST /api/orders/:orderId/transfer',                    Y,    Y,     N,      N,    N],
  ['POST /api/orders/:orderId/waiter',                      Y,    Y,     N,      N,    N],
  // The floor's view of who serves.
  ['GET /api/service/waiters',                              Y,    Y,     N,      N,    N],
  // Boards: kitchen and barra (the admin sees everything).
  ['GET /api/board',                                        Y,    N,     Y,      Y,    N],
  // Card payments: taken on the floor; recording by hand and refunds are the admin's.
  ['GET /api/card-payments',                                Y,    Y,     N,      N,    N],
  ['POST /api/card-payments',                               Y,    Y,     N,      N,    N],
  ['GET /api/card-payments/:id',                            Y,    Y,     N,      N,    N],
  ['POST /api/card-payments/:id/cancel',                    Y,    Y,     N,      N,    N],
  ['POST /api/card-payments/:id/record',                    Y,    N,     N,      N,    N],
  ['POST /api/card-payments/:id/refunded',                  Y,    N,     N,      N,    N],
  ['GET /api/card-payments/review',                         Y,    N,     N,      N,    N],
  // Terminals: the admin manages them; the floor only learns which ones it may charge on (SPEC §6).
  ['GET /api/terminals',                                    Y,    N,     N,      N,    N],
  ['PUT /api/terminals/:id',                                Y,    N,     N,      N,    N],
  ['POST /api/terminals/:id/pdv-mode',                      Y,    N,     N,      N,    N],
  ['GET /api/terminals/enabled',                            Y,    Y,     N,      N,    N],
  ['GET /api/terminals/status',                             Y,    N,     N,      N,    N],
  ['POST /api/terminals/test-charge',                       Y,    N,     N,      N,    N],
  ['GET /api/terminals/test-charge/:id',                    Y,    N,     N,      N,    N],
  // Payment provider notifications: no session, verified by signature.
  ['POST /api/webhooks/mercadopago',                        Y,    Y,     Y,      Y,    Y],
  // The cash close and its exports: the admin's.
  ['GET /api/cash-close',                                   Y,    N,     N,      N,    N],
  ['GET /api/cash-close/adjustments',                       Y,    N,     N,      N,    N],
  ['GET /api/cash-close/cancellations',                     Y,    N,     N,      N,    N],
  ['GET /api/cash-close/export.csv',                        Y,    N,     N,      N,    N],
  ['GET /api/cash-close/outside',                           Y,    N,     N,      N,    N],
  // The drawer (caja: float, movements, cortes, tips and tip payouts) is the admin's alone; a waiter signs a payout with their PIN on the admin's screen.
  ['GET /api/drawer',                                       Y,    N,     N,      N,    N],
  ['POST /api/drawer/movements',                            Y,    N,     N,      N,    N],
  ['POST /api/drawer/movements/:movementId/print',          Y,    N,     N,      N,    N],
  ['POST /api/drawer/open',                                 Y,    N,     N,      N,    N],
  ['GET /api/drawer/sessions',                              Y,    N,     N,      N,    N],
  ['GET /api/drawer/sessions/:sessionId',                   Y,    N,     N,      N,    N],
  ['POST /api/drawer/sessions/:sessionId/corte-z',          Y,    N,     N,      N,    N],
  ['POST /api/drawer/sessions/:sessionId/print',            Y,    N,     N,      N,    N],
  ['PUT /api/drawer/settings',                              Y,    N,     N,      N,    N],
  ['GET /api/drawer/tips',                                  Y,    N,     N,      N,    N],
  ['POST /api/drawer/tips/payouts',                         Y,    N,     N,      N,    N],
  ['PUT /api/drawer/tips/pool',                             Y,    N,     N,      N,    N],
  // Printed tickets, printers and devices: configured by admins; stations read the alerts for their own printer.
  ['GET /api/tickets',                                      Y,    N,     N,      N,    N],
  ['GET /api/tickets/:orderId',                             Y,    N,     N,      N,    N],
  ['POST /api/tickets/:orderId/print',                      Y,    N,     N,      N,    N],
  ['GET /api/printers',                                     Y,    N,     N,      N,    N],
  ['POST /api/printers',                                    Y,    N,     N,      N,    N],
  ['DELETE /api/printers/:printerId',                       Y,    N,     N,      N,    N],
  ['PATCH /api/printers/:printerId',                        Y,    N,     N,      N,    N],
  ['POST /api/printers/:printerId/test',                    Y,    N,     N,      N,    N],
  ['GET /api/printers/alerts',                              Y,    N,     Y,      Y,    N],
  ['GET /api/printers/emulator',                            Y,    N,     N,      N,    N],
  ['POST /api/printers/emulator/:printerId',                Y,    N,     N,      N,    N],
  ['GET /api/devices',                                      Y,    N,     N,      N,    N],
  ['GET /api/shared-devices',                               Y,    N,     N,      N,    N],
  ['POST /api/shared-devices',                              Y,    N,     N,      N,    N],
  ['POST /api/shared-devices/:deviceId/revoke',             Y,    N,     N,      N,    N],
  ['GET /api/shared-devices/current',                       Y,    Y,     Y,      Y,    Y],
  // The names a shared device's switch screen offers: public, answered only to an enrolled device's cookie.
  ['GET /api/shared-devices/current/people',                Y,    Y,     Y,      Y,    Y],
  // Reports (sales by period and their exports): the admin's.
  ['GET /api/reports',                                      Y,    N,     N,      N,    N],
  ['GET /api/reports/export.csv',                           Y,    N,     N,      N,    N],
  ['GET /api/reports/export.xlsx',                          Y,    N,     N,      N,    N],
  // The menu as a spreadsheet (export, preview and import): the admin's.
  ['GET /api/menu/export.csv',                              Y,    N,     N,      N,    N],
  ['POST /api/menu/import',                                 Y,    N,     N,      N,    N],
  // Promotions: the admin manages the rules; every signed-in screen reads what is on now (PROMO on the picker).
  ['GET /api/promotions',                                   Y,    N,     N,      N,    N],
  ['POST /api/promotions',                                  Y,    N,     N,      N,    N],
  ['PUT /api/promotions/:id',                               Y,    N,     N,      N,    N],
  ['DELETE /api/promotions/:id',                            Y,    N,     N,      N,    N],
  ['GET /api/promotions/active',                            Y,    Y,     Y,      Y,    N],
  ['GET /api/cash-close/promotions',                        Y,    N,     N,      N,    N],
  // Facturación: the cashier (a waiter with a PIN, or the admin) invoices a ticket and downloads it; the rest is the admin's.
  ['GET /api/invoicing',                                    Y,    N,     N,      N,    N],
  ['GET /api/invoicing/tickets/:orderId',                   Y,    Y,     N,      N,    N],
  ['POST /api/invoicing/tickets/:orderId/invoice',          Y,    Y,     N,      N,    N],
  ['POST /api/invoicing/tickets/:orderId/sync',             Y,    N,     N,      N,    N],
  ['GET /api/invoicing/invoices/:id/:format',               Y,    Y,     N,      N,    N],
  ['POST /api/invoicing/invoices/:id/retry',                Y,    N,     N,      N,    N],
  ['POST /api/invoicing/invoices/:id/cancel',               Y,    N,     N,      N,    N],
  ['POST /api/invoicing/invoices/:id/refresh',              Y,    N,     N,      N,    N],
  ['POST /api/invoicing/globals/now',                       Y,    N,     N,      N,    N],
];

/**
 * Rows for routes being built on other branches: tolerated while the app does not declare them yet.
 * Remove a route from here once it has landed.
 */
export const PENDING: ReadonlySet<string> = new Set<string>([]);

export type Allowed = Readonly<Record<Caller, boolean>>;

/** `METHOD /api/path` → who passes its access check. */
export const EXPECTED_ACCESS: ReadonlyMap<string, Allowed> = new Map(
  ROWS.map(([route, admin, waiter, kitchen, barra, anonymous]) => [route, { admin, waiter, kitchen, barra, anonymous }]),
);
if (EXPECTED_ACCESS.size !== ROWS.length) throw new Error('access-expected.ts: a route is listed twice');
