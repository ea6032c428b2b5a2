import { useState } from 'react';
import { NavLink, Outlet, useNavigate } from 'react-router';
import { toast } from 'sonner';
import { BarChart3, ChefHat, ClipboardList, LayoutGrid, LogOut, Menu, Package, Receipt, Settings, Wine } from 'lucide-react';
import { BrandMark } from '../../components/brand-mark.tsx';
import { Dialog } from '../../components/ui/dialog.tsx';
import { ConnectionIndicator } from '../../components/ui/connection-indicator.tsx';
import { cn } from '../../components/ui/cn.ts';
import { t } from '../../lib/i18n/es-MX.ts';
import { useGeneralConfig } from '../../lib/config.ts';
import { useLogout, useSession } from '../../lib/session.ts';

const LINKS = [
  { to: '/admin/home', label: t.nav.tables, icon: LayoutGrid },
  { to: '/admin/kanban/cocina', label: t.nav.kitchen, icon: ChefHat },
  { to: '/admin/kanban/barra', label: t.nav.bar, icon: Wine },
  { to: '/admin/panel', label: t.nav.panel, icon: ClipboardList },
  { to: '/admin/tickets', label: t.nav.tickets, icon: Receipt },
  { to: '/admin/cierre', label: t.nav.cashClose, icon: BarChart3 },
  { to: '/admin/manage-products', label: t.nav.products, icon: Package },
  { to: '/admin/settings', label: t.nav.settings, icon: Settings },
];

function NavLinks({ onNavigate }: { onNavigate?: () => void }) {
  return (
    <nav className="flex flex-col gap-1">
      {LINKS.map(({ to, label, icon: Icon }) => (
        <NavLink key={to} to={to} onClick={onNavigate} className={({ isActive }) => cn('flex items-center gap-3 rounded-lg px-3 py-2 text-sm font-medium', isActive ? 'bg-brand-500 text-slate-950' : 'text-slate-300 hover:bg-slate-800 hover:text-white')}>
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
  const onLogout = () =>
    logout.mutate(undefined, {
      onSuccess: () => {
        toast.success(t.logout.success);
        navigate('/admin/login', { replace: true });
      },
      onError: () => toast.error(t.logout.error),
    });
  const userBlock = (
    <div className="border-t border-slate-800 pt-3">
      <p className="truncate text-sm font-semibold text-white">{user?.displayName}</p>
      <p className="truncate text-xs text-slate-400">{user?.email}</p>
      <button type="button" onClick={onLogout} className="mt-2 flex w-full items-center gap-2 rounded-lg px-3 py-2 text-sm text-slate-300 hover:bg-slate-800 hover:text-white">
        <LogOut className="h-4 w-4" aria-hidden />
        {t.logout.action}
      </button>
    </div>
  );
  return (
    <div className="min-h-screen lg:pl-64">
      <aside className="fixed inset-y-0 left-0 hidden w-64 flex-col justify-between bg-slate-900 p-4 lg:flex print:hidden">
        <div>
          <div className="mb-6 flex items-center gap-3 px-2">
            <BrandMark logoUrl={config.data?.logoUrl} />
            <span className="truncate font-bold text-white">{config.data?.name || t.app.fallbackTitle}</span>
          </div>
          <NavLinks />
        </div>
        {userBlock}
      </aside>
      <main className="mx-auto max-w-7xl p-4 pb-24 lg:p-8">
        <Outlet />
      </main>
      <button type="button" aria-label={t.nav.menu} onClick={() => setSheet(true)} className="fixed bottom-4 right-4 z-30 flex h-14 w-14 items-center justify-center rounded-full bg-slate-900 text-white shadow-xl lg:hidden print:hidden">
        <Menu className="h-6 w-6" aria-hidden />
      </button>
      <Dialog open={sheet} onClose={() => setSheet(false)} title={t.nav.menu} variant="sheet" className="bg-slate-900 text-white [&_h2]:text-white">
        <NavLinks onNavigate={() => setSheet(false)} />
        <div className="mt-4">{userBlock}</div>
      </Dialog>
      <ConnectionIndicator />
    </div>
  );
}
