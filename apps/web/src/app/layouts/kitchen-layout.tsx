import { NavLink, Outlet, useNavigate } from 'react-router';
import { toast } from 'sonner';
import { ChefHat, Wine } from 'lucide-react';
import { ConnectionIndicator } from '../../components/ui/connection-indicator.tsx';
import { OfflineBanner } from '../../components/offline-banner.tsx';
import { PrintAlertBanner } from '../../components/print-alert-banner.tsx';
import { cn } from '../../components/ui/cn.ts';
import { t } from '../../lib/i18n/es-MX.ts';
import { KITCHEN_NAME_KEY, useLogout, useSession } from '../../lib/session.ts';
import { FloatingUserMenu } from './user-menu.tsx';

export function KitchenLayout() {
  const { data: user } = useSession();
  const logout = useLogout();
  const navigate = useNavigate();
  const name = localStorage.getItem(KITCHEN_NAME_KEY) ?? user?.displayName ?? '';
  const toggle = ({ isActive }: { isActive: boolean }) =>
    cn(
      'flex h-11 items-center gap-2 rounded-lg px-4 text-sm font-semibold',
      isActive ? 'bg-brand-500 text-slate-950' : 'text-slate-300 hover:bg-slate-800',
    );
  return (
    <div className="min-h-screen bg-slate-100">
      <header className="sticky top-0 z-20 flex h-14 items-center justify-center gap-2 bg-slate-900 px-16">
        <NavLink to="/kitchen/cocina" className={toggle}>
          <ChefHat className="h-4 w-4" aria-hidden />
          {t.nav.kitchen}
        </NavLink>
        <NavLink to="/kitchen/barra" className={toggle}>
          <Wine className="h-4 w-4" aria-hidden />
          {t.nav.bar}
        </NavLink>
      </header>
      <main className="p-4">
        <PrintAlertBanner />
        <Outlet />
      </main>
      <FloatingUserMenu
        placement="top-right"
        title={name}
        subtitle={user ? t.roles[user.role] : ''}
        busy={logout.isPending}
        onLogout={() =>
          logout.mutate(undefined, {
            onSuccess: () => {
              toast.success(t.logout.kitchenSuccess);
              navigate('/login', { replace: true });
            },
            onError: () => toast.error(t.logout.error),
          })
        }
      />
      <ConnectionIndicator />
      <OfflineBanner />
    </div>
  );
}
