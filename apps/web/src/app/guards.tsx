import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import type { Role } from '@comanda/contract';
import { ROLE_HOME, useSession } from '../lib/session.ts';
import { AppPlaceholder } from '../components/ui/spinner.tsx';
import { ErrorState } from '../components/ui/empty-state.tsx';
import { t } from '../lib/i18n/first-screen.ts';
import { SharedDeviceLock } from '../components/shared-device-lock.tsx';

/** No session → /login (remembering where to return); another role → that role's home. */
export function RequireRole({ roles, children }: { roles: readonly Role[]; children: ReactNode }) {
  const session = useSession();
  const location = useLocation();
  if (session.isPending) return <AppPlaceholder />;
  if (session.isError)
    return (
      <div className="p-6">
        <ErrorState message={t.app.unavailable} onRetry={() => void session.refetch()} />
      </div>
    );
  const user = session.data;
  if (!user) return <Navigate to={`/login?redirect=${encodeURIComponent(location.pathname)}`} replace />;
  if (!roles.includes(user.role)) return <Navigate to={ROLE_HOME[user.role]} replace />;
  return (
    <>
      {children}
      <SharedDeviceLock />
    </>
  );
}
