import { lazy, Suspense, type ComponentType, type ReactNode } from 'react';
import { createBrowserRouter, Navigate, type RouteObject } from 'react-router';
import type { Role } from '@comanda/contract';
import { Spinner } from '../components/ui/spinner.tsx';
import { LoginPage } from '../features/auth/login-page.tsx';
import { RequireRole } from './guards.tsx';
import { RouteError } from './route-error.tsx';

/** Each screen is its own chunk: the login route stays small, a role loads only its screens. */
function page<K extends string>(load: () => Promise<{ [P in K]: ComponentType }>, name: K): ReactNode {
  const Component = lazy(async () => {
    const module = await load();
    const Screen: ComponentType = module[name];
    return { default: Screen };
  });
  return (
    <Suspense fallback={<Spinner />}>
      <Component />
    </Suspense>
  );
}

const loadAdminTables = () => import('../features/tables/admin-tables-page.tsx');
const loadWaiterHome = () => import('../features/tables/waiter-home-page.tsx');
const loadBoard = () => import('../features/board/board-page.tsx');
const loadAdminLayout = () => import('./layouts/admin-layout.tsx');
const loadWaiterLayout = () => import('./layouts/waiter-layout.tsx');
const loadKitchenLayout = () => import('./layouts/kitchen-layout.tsx');

const AdminTables = page(loadAdminTables, 'AdminTablesPage');
const WaiterHome = page(loadWaiterHome, 'WaiterHomePage');
const AdminOrder = page(() => import('../features/orders/admin-order-page.tsx'), 'AdminOrderPage');
const WaiterOrder = page(() => import('../features/orders/waiter-order-page.tsx'), 'WaiterOrderPage');
const Board = page(loadBoard, 'BoardPage');
const Panel = page(() => import('../features/panel/panel-page.tsx'), 'PanelPage');
const Checkout = page(() => import('../features/checkout/checkout-page.tsx'), 'CheckoutPage');
const Tickets = page(() => import('../features/tickets/tickets-page.tsx'), 'TicketsPage');
const Products = page(() => import('../features/products/products-page.tsx'), 'ProductsPage');
const Promotions = page(() => import('../features/promotions/promotions-page.tsx'), 'PromotionsPage');
const CashClose = page(() => import('../features/cash-close/cash-close-page.tsx'), 'CashClosePage');
const Reports = page(() => import('../features/reports/reports-page.tsx'), 'ReportsPage');
const Caja = page(() => import('../features/drawer/caja-page.tsx'), 'CajaPage');
const Settings = page(() => import('../features/settings/settings-page.tsx'), 'SettingsPage');
const ResetPassword = page(() => import('../features/auth/reset-password-page.tsx'), 'ResetPasswordPage');

// The layouts (and the offline banner and outbox they carry) load after sign-in, not with the login page.
const AdminLayout = page(loadAdminLayout, 'AdminLayout');
const WaiterLayout = page(loadWaiterLayout, 'WaiterLayout');
const KitchenLayout = page(loadKitchenLayout, 'KitchenLayout');

/** A role's home, opened signed in: load its layout and screen at once, not layout-then-screen. */
const HOME_LOADERS: Record<string, { role: Role[]; load: (() => Promise<unknown>)[] }> = {
  '/waiter/home': { role: ['waiter'], load: [loadWaiterLayout, loadWaiterHome] },
  '/admin/home': { role: ['admin'], load: [loadAdminLayout, loadAdminTables] },
  '/kitchen/cocina': { role: ['kitchen', 'barra'], load: [loadKitchenLayout, loadBoard] },
  '/kitchen/barra': { role: ['kitchen', 'barra'], load: [loadKitchenLayout, loadBoard] },
};

export function warmRoute(pathname: string, role: Role): void {
  const home = HOME_LOADERS[pathname];
  if (home?.role.includes(role)) for (const load of home.load) void load().catch(() => undefined);
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
    element: <RequireRole roles={['admin']}>{AdminLayout}</RequireRole>,
    children: [
      { index: true, element: <Navigate to="/admin/home" replace /> },
      { path: 'home', element: AdminTables },
      { path: 'kanban', element: Board },
      { path: 'kanban/cocina', element: Board },
      { path: 'kanban/barra', element: Board },
      { path: 'tickets', element: Tickets },
      { path: 'manage-products', element: Products },
      { path: 'promociones', element: Promotions },
      { path: 'checkout', element: Checkout },
      { path: 'checkout/:orderId', element: Checkout },
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
    element: <RequireRole roles={['waiter']}>{WaiterLayout}</RequireRole>,
    children: [
      { index: true, element: <Navigate to="/waiter/home" replace /> },
      { path: 'home', element: WaiterHome },
      { path: 'order/:tableId', element: WaiterOrder },
      { path: 'checkout', element: Checkout },
      { path: 'checkout/:orderId', element: Checkout },
    ],
  },
  {
    path: '/kitchen',
    element: <RequireRole roles={['kitchen', 'barra']}>{KitchenLayout}</RequireRole>,
    children: [
      { index: true, element: <Navigate to="/kitchen/cocina" replace /> },
      { path: 'cocina', element: Board },
      { path: 'barra', element: Board },
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

export const router = createBrowserRouter([{ errorElement: <RouteError />, children: withErrorPage(routes) }]);
