import { useEffect, useState } from 'react';
import { useRouteError } from 'react-router';
import { AlertTriangle, Home, RotateCcw, WifiOff } from 'lucide-react';
import { Button } from '../components/ui/button.tsx';
import { t } from '../lib/i18n/first-screen.ts';
import { connection } from '../lib/connection.ts';
import { reportClientError } from '../lib/report-error.ts';
import { ROLE_HOME, useSession } from '../lib/session.ts';

/**
 * Our page for a screen that threw while rendering or loading (the router's errorElement on
 * every route): Spanish, reported to the server's log, with a way back. Both ways are full page
 * loads, so whatever state broke the screen (a stale chunk after an update, a bad cache) is gone.
 */
export function RouteError() {
  const error = useRouteError();
  const session = useSession();
  const home = session.data ? ROLE_HOME[session.data.role] : '/login';
  // A screen's chunk that could not load with the Wi-Fi down is no error: say so, and open it
  // (a full load) as soon as the network is back.
  const [offline] = useState(() => navigator.onLine === false || connection.isOffline());
  useEffect(() => {
    if (!offline) return reportClientError(error);
    const back = () => window.location.reload();
    window.addEventListener('online', back);
    return () => window.removeEventListener('online', back);
  }, [error, offline]);
  const detail = error instanceof Error ? error.message : null;
  if (offline) {
    return (
      <div className="flex min-h-[60vh] items-center justify-center p-4">
        <div role="status" className="w-full max-w-md space-y-3 rounded-2xl border border-slate-200 bg-white p-6 text-center shadow-sm">
          <WifiOff className="mx-auto h-10 w-10 text-slate-500" aria-hidden />
          <h1 className="text-xl font-bold text-slate-900">{t.routeError.offlineTitle}</h1>
          <p className="text-sm text-slate-600">{t.routeError.offlineText}</p>
        </div>
      </div>
    );
  }

  return (
    <div className="flex min-h-[60vh] items-center justify-center p-4">
      <div role="alert" className="w-full max-w-md space-y-4 rounded-2xl border border-slate-200 bg-white p-6 text-center shadow-sm">
        <div className="mx-auto flex h-12 w-12 items-center justify-center rounded-full bg-rose-100 text-rose-700">
          <AlertTriangle className="h-6 w-6" aria-hidden />
        </div>
        <h1 className="text-xl font-bold text-slate-900">{t.routeError.title}</h1>
        <p className="text-sm text-slate-600">{t.routeError.explanation}</p>
        <div className="grid gap-2 sm:grid-cols-2">
          <Button size="lg" onClick={() => window.location.reload()}>
            <RotateCcw className="h-4 w-4" aria-hidden />
            {t.routeError.retry}
          </Button>
          <Button size="lg" variant="outline" onClick={() => window.location.assign(home)}>
            <Home className="h-4 w-4" aria-hidden />
            {t.routeError.home}
          </Button>
        </div>
        {detail && (
          <details className="text-left text-xs text-slate-500">
            <summary className="cursor-pointer">{t.routeError.details}</summary>
            <p className="mt-1 font-mono break-words">{detail}</p>
          </details>
        )}
      </div>
    </div>
  );
}
