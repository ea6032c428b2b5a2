import { lazy, Suspense, type ComponentType, type ReactNode } from 'react';
import { createBrowserRouter, Navigate, Outlet, ScrollRestoration, type RouteObject } from 'react-router';
import type { Role } from '@comanda/contract';
import { Spinner } from '../components/ui/spinner.tsx';
import { LoginPage } from '../features/auth/login-page.tsx';
import { registerScreens } from '../lib/screens.ts';
import { RequireRole } from './guards.tsx';
import { RouteError } from './route-error.tsx';

type Loader = () => Promise<unknown>;

/**
 * Each screen is its own chunk: the login route stays small, a role loads only its screens.
 * Once a screen's chunk has been evaluated (preloaded by `warmRoute`, or shown before), `lazy`
 * gets it synchronously, so the first render draws it instead of a fallback and a second pass.
 */
function screen<K extends string>(load: () => Promise<{ [P in K]: ComponentType }>, name: K): { element: ReactNode; preload: Loader } {
  let ready: ComponentType | undefined;
  const preload = () =>
    load().then((module) => {
      ready = module[name];
      return ready;
    });
  const Component = lazy(() => {
    if (ready) {
      const loaded = { default: ready };
      // A thenable that answers at once: React reads it in the same render, no suspense.
      return { then: (resolve: (value: typeof loaded) => void) => resolve(loaded) } as unknown as Promise<typeof loaded>;
    }
    return preload().then((Screen) => ({ default: Screen }));
  });
  return {
    element: (
      <Suspense fallback={<Spinner />}>
        <Component />
      </Suspense>
    ),
    preload,
  };
}

function page<K extends string>(load: () => Promise<{ [P in K]: ComponentType }>, name: K): ReactNode {
  return screen(load, name).element;
}

const AdminTables = screen(() => import('../features/tables/admin-tables-page.tsx'), 'AdminTablesPage');
const WaiterHome = screen(() => import('../features/tables/waiter-home-page.tsx'), 'WaiterHomePage');
const Board = screen(() => import('../features/board/board-page.tsx'), 'BoardPage');
// The layouts (and the offline banner and outbox they carry) load after sign-in, not with the login page.
const AdminLayout = screen(() => import('./layouts/admin-layout.tsx'), 'AdminLayout');
const WaiterLayout = screen(() => import('./layouts/waiter-layout.tsx'), 'WaiterLayout');
const KitchenLayout = screen(() => import('./layouts/kitchen-layout.tsx'), 'KitchenLayout');

const WaiterOrder = screen(() => import('../features/orders/waiter-order-page.tsx'), 'WaiterOrderPage');
const Checkout = screen(() => import('../features/checkout/checkout-page.tsx'), 'CheckoutPage');
// Everything a waiter opens, on the phone before the Wi-Fi can drop (the waiter layout loads it).
registerScreens('/waiter', [WaiterLayout.preload, WaiterHome.preload, WaiterOrder.preload, Checkout.preload]);

const AdminOrder = page(() => import('../features/orders/admin-order-page.tsx'), 'AdminOrderPage');
const Panel = page(() => import('../features/panel/panel-page.tsx'), 'PanelPage');
const Tickets = page(() => import('../features/tickets/tickets-page.tsx'), 'TicketsPage');
const Invoicing = page(() => import('../features/invoicing/invoicing-page.tsx'), 'InvoicingPage');
const Products = page(() => import('../features/products/products-page.tsx'), 'ProductsPage');
const Promotions = page(() => import('../features/promotions/promotions-page.tsx'), 'PromotionsPage');
const Inventory = page(() => import('../features/inventory/inventory-page.tsx'), 'InventoryPage');
const CashClose = page(() => import('../features/cash-close/cash-close-page.tsx'), 'CashClosePage');
const Reports = page(() => import('../features/reports/reports-page.tsx'), 'ReportsPage');
const Caja = page(() => import('../features/drawer/caja-page.tsx'), 'CajaPage');
const Settings = page(() => import('../features/settings/settings-page.tsx'), 'SettingsPage');
const ResetPassword = page(() => import('../features/auth/reset-password-page.tsx'), 'ResetPasswordPage');

/** A role's home, opened signed in: load its layout and screen at once, not layout-then-screen. */
const HOME_LOADERS: Record<string, { role: Role[]; load: Loader[] }> = {
  '/waiter/home': { role: ['waiter'], load: [WaiterLayout.preload, WaiterHome.preload] },
  '/admin/home': { role: ['admin'], load: [AdminLayout.preload, AdminTables.preload] },
  '/kitchen/cocina': { role: ['kitchen', 'barra'], load: [KitchenLayout.preload, Board.preload] },
  '/kitchen/barra': { role: ['kitchen', 'barra'], load: [KitchenLayout.preload, Board.preload] },
};

/**
 * Starts loading a role's home (layout and screen together) and resolves once both are ready
 * (or one failed: the route then loads it as usual and shows its error page), so the first
 * render can draw the whole screen in one pass.
 */
export function warmRoute(pathname: string, role: Role): Promise<void> {
  const home = HOME_LOADERS[pathname];
  if (!home?.role.includes(role)) return Promise.resolve();
  return Promise.all(home.load.map((load) => load())).then(
    () => undefined,
    () => undefined,
  );
}

const toLogin = <Navigate to="/login" replace />;

const routes: RouteObject[] = [
  { path: '/', element: toLogin },
  { path: '/login', element: <LoginPage /> },
  { path: '/reset-password', element: ResetPassword },
  { path: '/admin/login', element: toLogin },
  { path: '/waiter/login', element: toLogin },
  { path: '/kitchen/login', element: toLogin },
  {
    path: '/admin',
    element: <RequireRole roles={['admin']}>{AdminLayout.element}</RequireRole>,
    children: [
      { index: true, element: <Navigate to="/admin/home" replace /> },
      { path: 'home', element: AdminTables.element },
      { path: 'kanban', element: Board.element },
      { path: 'kanban/cocina', element: Board.element },
      { path: 'kanban/barra', element: Board.element },
      { path: 'tickets', element: Tickets },
      { path: 'facturacion', element: Invoicing },
      { path: 'manage-products', element: Products },
      { path: 'promociones', element: Promotions },
      { path: 'inventario', element: Inventory },
      { path: 'checkout', element: Checkout.element },
      { path: 'checkout/:orderId', element: Checkout.element },
      { path: 'order/:tableId', element: AdminOrder },
      { path: 'panel', element: Panel },
      { path: 'cierre', element: CashClose },
      { path: 'caja', element: Caja },
      { path: 'reportes', element: Reports },
      { path: 'settings', element: Settings },
    ],
  },
  {
    path: '/waiter',
    element: <RequireRole roles={['waiter']}>{WaiterLayout.element}</RequireRole>,
    children: [
      { index: true, element: <Navigate to="/waiter/home" replace /> },
      { path: 'home', element: WaiterHome.element },
      { path: 'order/:tableId', element: WaiterOrder.element },
      { path: 'checkout', element: Checkout.element },
      { path: 'checkout/:orderId', element: Checkout.element },
    ],
  },
  {
    path: '/kitchen',
    element: <RequireRole roles={['kitchen', 'barra']}>{KitchenLayout.element}</RequireRole>,
    children: [
      { index: true, element: <Navigate to="/kitchen/cocina" replace /> },
      { path: 'cocina', element: Board.element },
      { path: 'barra', element: Board.element },
    ],
  },
  { path: '*', element: toLogin },
];

/**
 * Our error page on every route: a crash in a screen shows it inside its layout (header and
 * menu stay), a crash in a layout or guard replaces the layout, and the root catches the rest.
 * The router's own default error page is never reached.
 */
function withErrorPage(list: RouteObject[]): RouteObject[] {
  return list.map((route) => ({
    ...route,
    errorElement: <RouteError />,
    ...(route.children ? { children: withErrorPage(route.children) } : {}),
  })) as RouteObject[];
}

/** A new screen opens at its top (a tap on a card low in Mesas must not open Cobro scrolled); Back returns to where it was. */
function Root() {
  return (
    <>
      <ScrollRestoration />
      <Outlet />
    </>
  );
}

export const router = createBrowserRouter([{ element: <Root />, errorElement: <RouteError />, children: withErrorPage(routes) }]);
