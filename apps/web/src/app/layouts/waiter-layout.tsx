import { lazy, Suspense, useEffect, useState } from 'react';
import { Link, Outlet, useLocation, useNavigate } from 'react-router';
import { toast } from 'sonner';
import { LayoutGrid } from 'lucide-react';
import { BrandMark } from '../../components/brand-mark.tsx';
import { ConnectionIndicator } from '../../components/ui/connection-indicator.tsx';
import { OfflineBanner } from '../../components/offline-banner.tsx';
import { t } from '../../lib/i18n/es-MX.ts';
import { useGeneralConfig } from '../../lib/config.ts';
import { afterNextPaint } from '../../lib/after-first-screen.ts';
import { useLogout, useSession } from '../../lib/session.ts';
import { FloatingUserMenu } from './user-menu.tsx';

/**
 * What keeps the phone able to work offline (lib/offline-ready.ts) loads once the first screen is
 * on it: it brings the catalogue's and orders' response schemas (zod), which the tables do not need.
 */
const OfflineReady = lazy(async () => {
  const { useOfflineReady } = await import('../../lib/offline-ready.ts');
  return {
    default: function OfflineReady() {
      useOfflineReady('/waiter');
      return null;
    },
  };
});

export function WaiterLayout() {
  const { data: user } = useSession();
  const config = useGeneralConfig();
  const logout = useLogout();
  const navigate = useNavigate();
  const [drawn, setDrawn] = useState(false);
  useEffect(() => afterNextPaint(() => setDrawn(true)), []);
  // The order and checkout screens keep their actions at the bottom edge; the menu would sit
  // under (or on top of) them, so it lives on the tables screen, where SPEC §2 puts it. Where it
  // shows, the offline notice (placed by --bottom-bar-h) floats above it.
  const { pathname } = useLocation();
  const showMenu = !/^\/waiter\/(order|checkout)/.test(pathname);
  return (
    <div className={showMenu ? 'min-h-screen [--bottom-bar-h:4.5rem]' : 'min-h-screen'}>
      <header className="sticky top-0 z-20 flex h-14 items-center justify-between border-b border-slate-200 bg-white/95 px-4 backdrop-blur print:hidden">
        <div className="flex min-w-0 items-center gap-2">
          <BrandMark logoUrl={config.data?.logoUrl} />
          <span className="truncate font-bold">{config.data?.name || t.app.fallbackTitle}</span>
        </div>
        <Link
          to="/waiter/home"
          className="flex h-11 items-center gap-1 rounded-lg px-3 text-sm font-medium text-slate-700 hover:bg-slate-100"
        >
          <LayoutGrid className="h-4 w-4" aria-hidden />
          {t.nav.tables}
        </Link>
      </header>
      {/* Room under the last card for the floating user menu, so it never covers a table. */}
      <main className={showMenu ? 'mx-auto max-w-3xl pb-20' : 'mx-auto max-w-3xl'}>
        <Outlet />
      </main>
      {showMenu && (
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
      )}
      <ConnectionIndicator />
      <OfflineBanner />
      {drawn && (
        <Suspense fallback={null}>
          <OfflineReady />
        </Suspense>
      )}
    </div>
  );
}
