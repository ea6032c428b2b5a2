import { useState } from 'react';
import { NavLink, Outlet, useNavigate } from 'react-router';
import { toast } from 'sonner';
import {
  BarChart3,
  Boxes,
  ChartColumn,
  ChefHat,
  ClipboardList,
  FileText,
  LayoutGrid,
  LogOut,
  Menu,
  Package,
  Receipt,
  Settings,
  Tag,
  Vault,
  Wine,
} from 'lucide-react';
import { BrandMark } from '../../components/brand-mark.tsx';
import { Dialog } from '../../components/ui/dialog.tsx';
import { ConnectionIndicator } from '../../components/ui/connection-indicator.tsx';
import { OfflineBanner } from '../../components/offline-banner.tsx';
import { PrintAlertBanner } from '../../components/print-alert-banner.tsx';
import { LowStockBanner } from '../../features/inventory/low-stock-banner.tsx';
import { INV } from '../../features/inventory/texts.ts';
import { cn } from '../../components/ui/cn.ts';
import { t } from '../../lib/i18n/es-MX.ts';
import { useGeneralConfig } from '../../lib/config.ts';
import { useLogout, useSession } from '../../lib/session.ts';
import { useSharedDevice } from '../../lib/shared-device.ts';
import { SwitchUserButton } from './user-menu.tsx';

const LINKS = [
  { to: '/admin/home', label: t.nav.tables, icon: LayoutGrid },
  { to: '/admin/kanban/cocina', label: t.nav.kitchen, icon: ChefHat },
  { to: '/admin/kanban/barra', label: t.nav.bar, icon: Wine },
  { to: '/admin/panel', label: t.nav.panel, icon: ClipboardList },
  { to: '/admin/tickets', label: t.nav.tickets, icon: Receipt },
  { to: '/admin/facturacion', label: t.invoicing.title, icon: FileText },
  { to: '/admin/cierre', label: t.nav.cashClose, icon: BarChart3 },
  { to: '/admin/caja', label: t.drawer.nav, icon: Vault },
  { to: '/admin/reportes', label: t.reports.nav, icon: ChartColumn },
  { to: '/admin/manage-products', label: t.nav.products, icon: Package },
  { to: '/admin/promociones', label: t.promotions.nav, icon: Tag },
  { to: '/admin/inventario', label: INV.nav, icon: Boxes },
  { to: '/admin/settings', label: t.nav.settings, icon: Settings },
];

/** The same links in the dark sidebar and in the white bottom sheet of a phone. */
function NavLinks({ onNavigate, tone = 'dark' }: { onNavigate?: () => void; tone?: 'dark' | 'light' }) {
  const idle = tone === 'dark' ? 'text-slate-300 hover:bg-slate-800 hover:text-white' : 'text-slate-700 hover:bg-slate-100';
  return (
    <nav className="flex flex-col gap-1" aria-label={t.nav.menu}>
      {LINKS.map(({ to, label, icon: Icon }) => (
        <NavLink
          key={to}
          to={to}
          onClick={onNavigate}
          className={({ isActive }) =>
            cn('flex min-h-11 items-center gap-3 rounded-lg px-3 py-2 text-sm font-medium', isActive ? 'bg-brand-500 text-slate-950' : idle)
          }
        >
          <Icon className="h-4 w-4" aria-hidden />
          {label}
        </NavLink>
      ))}
    </nav>
  );
}

export function AdminLayout() {
  const { data: user } = useSession();
  const config = useGeneralConfig();
  const logout = useLogout();
  const navigate = useNavigate();
  const [sheet, setSheet] = useState(false);
  const device = useSharedDevice();
  const onLogout = () =>
    logout.mutate(undefined, {
      onSuccess: () => {
        toast.success(t.logout.success);
        navigate('/admin/login', { replace: true });
      },
      onError: () => toast.error(t.logout.error),
    });
  const userBlock = (tone: 'dark' | 'light') => (
    <div className={cn('border-t pt-3', tone === 'dark' ? 'border-slate-800' : 'border-slate-200')}>
      <p className={cn('truncate text-sm font-semibold', tone === 'dark' ? 'text-white' : 'text-slate-900')}>{user?.displayName}</p>
      <p className={cn('truncate text-xs', tone === 'dark' ? 'text-slate-400' : 'text-slate-500')}>{user?.email}</p>
      {device.data?.enrolled && <SwitchUserButton tone={tone} />}
      <button
        type="button"
        onClick={onLogout}
        disabled={logout.isPending}
        className={cn(
          'mt-2 flex min-h-11 w-full items-center gap-2 rounded-lg px-3 py-2 text-sm',
          tone === 'dark' ? 'text-slate-300 hover:bg-slate-800 hover:text-white' : 'font-medium text-rose-700 hover:bg-rose-50',
        )}
      >
        <LogOut className="h-4 w-4" aria-hidden />
        {t.logout.action}
      </button>
    </div>
  );
  return (
    <div className="min-h-screen [--bottom-bar-h:4.5rem] lg:pl-64 lg:[--bottom-bar-h:0px]">
      <aside className="fixed inset-y-0 left-0 hidden w-64 flex-col justify-between overflow-y-auto bg-slate-900 p-4 lg:flex print:hidden">
        <div>
          <div className="mb-6 flex items-center gap-3 px-2">
            <BrandMark logoUrl={config.data?.logoUrl} />
            <span className="truncate font-bold text-white">{config.data?.name || t.app.fallbackTitle}</span>
          </div>
          <NavLinks />
        </div>
        {userBlock('dark')}
      </aside>
      <main className="mx-auto max-w-7xl p-4 pb-24 lg:p-8">
        <PrintAlertBanner />
        <LowStockBanner />
        <Outlet />
      </main>
      <button
        type="button"
        aria-label={t.nav.menu}
        onClick={() => setSheet(true)}
        className="fixed bottom-4 right-4 z-30 flex h-14 w-14 items-center justify-center rounded-full bg-slate-900 text-white shadow-xl lg:hidden print:hidden"
      >
        <Menu className="h-6 w-6" aria-hidden />
      </button>
      <Dialog open={sheet} onClose={() => setSheet(false)} title={t.nav.menu} variant="sheet">
        <NavLinks tone="light" onNavigate={() => setSheet(false)} />
        <div className="mt-4">{userBlock('light')}</div>
      </Dialog>
      {/* --bottom-bar-h on the root lifts it above the phone's menu button (none from lg up). */}
      <ConnectionIndicator />
      <OfflineBanner />
    </div>
  );
}
