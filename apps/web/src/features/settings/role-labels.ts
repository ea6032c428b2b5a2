import type { Role } from '@comanda/contract';
import { t } from '../../lib/i18n/es-MX.ts';

export const ROLE_OPTIONS: { value: Role; label: string; description: string }[] = [
  { value: 'admin', label: t.roles.admin, description: t.settings.adminDescription },
  { value: 'waiter', label: t.roles.waiter, description: t.roles.waiterDescription },
  { value: 'kitchen', label: t.roles.kitchen, description: t.roles.kitchenDescription },
  { value: 'barra', label: t.roles.barra, description: t.settings.barraDescription },
];

export const roleLabel = (role: Role): string => ROLE_OPTIONS.find((r) => r.value === role)?.label ?? role;
