import { WifiOff } from 'lucide-react';
import { useLiveStatus } from '../../lib/use-live.ts';
import { t } from '../../lib/i18n/es-MX.ts';
import { useReachability } from '../../lib/connection.ts';

/** Shown only when the screen is not live, so staff know what they see may be stale; it floats above a screen's bottom bar. */
export function ConnectionIndicator() {
  const status = useLiveStatus();
  // Without the server at all, the offline banner (components/offline-banner.tsx) says more.
  const reach = useReachability();
  if (status === 'open' || reach === 'offline') return null;
  return (
    <div
      role="status"
      data-testid="live-offline"
      className="fixed bottom-[calc(var(--bottom-bar-h,0px)+0.75rem)] left-1/2 z-40 flex w-max max-w-[calc(100vw-2rem)] -translate-x-1/2 items-center gap-2 rounded-full bg-amber-500 px-4 py-1.5 text-sm font-medium text-slate-950 shadow-lg"
    >
      <WifiOff className="h-4 w-4" aria-hidden />
      {t.app.offline}
    </div>
  );
}
