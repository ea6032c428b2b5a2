import { Link, Outlet, useNavigate } from 'react-router';
import { toast } from 'sonner';
import { LayoutGrid } from 'lucide-react';
import { BrandMark } from '../../components/brand-mark.tsx';
import { ConnectionIndicator } from '../../components/ui/connection-indicator.tsx';
import { t } from '../../lib/i18n/es-MX.ts';
import { useGeneralConfig } from '../../lib/config.ts';
import { useLogout, useSession } from '../../lib/session.ts';
import { FloatingUserMenu } from './user-menu.tsx';

export function WaiterLayout() {
  const { data: user } = useSession();
  const config = useGeneralConfig();
  const logout = useLogout();
  const navigate = useNavigate();
  return (
    <div className="min-h-screen">
      <header className="sticky top-0 z-20 flex items-center justify-between border-b border-slate-200 bg-white/95 px-4 py-2 backdrop-blur print:hidden">
        <div className="flex min-w-0 items-center gap-2">
          <BrandMark logoUrl={config.data?.logoUrl} />
          <span className="truncate font-bold">{config.data?.name || t.app.fallbackTitle}</span>
        </div>
        <Link to="/waiter/home" className="flex items-center gap-1 rounded-lg px-3 py-2 text-sm font-medium text-slate-700 hover:bg-slate-100">
          <LayoutGrid className="h-4 w-4" aria-hidden />
          {t.nav.tables}
        </Link>
      </header>
      <main className="mx-auto max-w-3xl">
        <Outlet />
      </main>
      <FloatingUserMenu
        title={user?.displayName ?? ''}
        subtitle={user?.email ?? ''}
        busy={logout.isPending}
        onLogout={() =>
          logout.mutate(undefined, {
            onSuccess: () => {
              toast.success(t.logout.success);
              navigate('/waiter/login', { replace: true });
            },
            onError: () => toast.error(t.logout.error),
          })
        }
      />
      <ConnectionIndicator />
    </div>
  );
}
