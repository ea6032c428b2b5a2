import { adjustmentsRoutes } from './adjustments/routes.ts';
import { authRoutes } from './auth/routes.ts';
import { boardRoutes } from './board/routes.ts';
import { cashCloseRoutes } from './cash-close/routes.ts';
import { checksRoutes } from './checks/routes.ts';
import { checkoutRoutes } from './checkout/routes.ts';
import { clientErrorRoutes } from './client-errors/routes.ts';
import { drawerRoutes } from './drawer/routes.ts';
import { modifiersRoutes } from './modifiers/routes.ts';
import { inventoryRoutes } from './inventory/routes.ts';
import { invoicingRoutes } from './invoicing/routes.ts';
import { ordersRoutes } from './orders/routes.ts';
import { orderServiceRoutes } from './orders/voids.routes.ts';
import { printingRoutes } from './printing/routes.ts';
import { productsRoutes } from './products/routes.ts';
import { menuCsvRoutes } from './products/menu-csv.routes.ts';
import { promotionsRoutes } from './promotions/routes.ts';
import { reportsRoutes } from './reports/routes.ts';
import { settingsRoutes } from './settings/routes.ts';
import { sharedDevicesRoutes } from './shared-devices/routes.ts';
import { tableServiceRoutes } from './table-service/routes.ts';
import { tablesRoutes } from './tables/routes.ts';
import { terminalsRoutes } from './terminals/routes.ts';
import { ticketsRoutes } from './tickets/routes.ts';
import { usersRoutes } from './users/routes.ts';
import { voidsRoutes } from './voids/routes.ts';

/** Every feature's routes; each route declares its own access policy. */
export const featureRoutes = [
  authRoutes,
  settingsRoutes,
  usersRoutes,
  productsRoutes,
  tablesRoutes,
  ordersRoutes,
  boardRoutes,
  checkoutRoutes,
  terminalsRoutes,
  ticketsRoutes,
  cashCloseRoutes,
  clientErrorRoutes,
  sharedDevicesRoutes,
  printingRoutes,
  drawerRoutes,
  tableServiceRoutes,
  adjustmentsRoutes,
  checksRoutes,
  orderServiceRoutes,
  voidsRoutes,
  reportsRoutes,
  menuCsvRoutes,
  promotionsRoutes,
  modifiersRoutes,
  inventoryRoutes,
  invoicingRoutes,
];
