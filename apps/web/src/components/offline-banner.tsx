import { useEffect, useRef } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { toast } from 'sonner';
import { CloudOff, TriangleAlert, X } from 'lucide-react';
import { useReachability } from '../lib/connection.ts';
import { t } from '../lib/i18n/es-MX.ts';
import { outbox, useOutboxEntries } from '../lib/outbox/index.ts';
import { useSession } from '../lib/session.ts';

/** Starts the outbox for the signed-in user; patches (or refreshes) an order once its queue is sent; tells a refusal at once. */
function useOutboxRunner(): void {
  const { data: user } = useSession();
  const qc = useQueryClient();
  const userId = user?.id ?? null;
  useEffect(() => {
    void outbox.start(userId);
  }, [userId]);
  useEffect(
    () =>
      outbox.onEvent((event) => {
        if (event.type === 'refused') toast.error(t.offline.failedToast(event.entry.label, event.entry.error ?? ''));
        const waiting = outbox.snapshot().some((e) => e.state === 'pending' && e.tableId === event.entry.tableId);
        const key = ['table-order', event.entry.tableId];
        if (event.type !== 'sent') {
          if (!waiting) void qc.invalidateQueries({ queryKey: key });
          return;
        }
        // A sent item write's light answer patches the cached order; otherwise it is read again.
        // The patcher (and the contract's schemas it reads the answer with) loads on the first
        // send, not with every layout's first screen; an order screen has it already.
        void import('../lib/order-cache.ts')
          .then(({ patchCachedOrders }) => patchCachedOrders(qc, key, event.body))
          .catch(() => false)
          .then((patched) => {
            if (!waiting && !patched) void qc.invalidateQueries({ queryKey: key });
          });
      }),
    [qc],
  );
}

/**
 * One notice for every layout: the offline banner while the server is out of reach (with how
 * many changes wait on this device), and each queued change the server refused ("no enviado",
 * with its reason) until the waiter dismisses it. It floats above a screen's bottom bar.
 */
export function OfflineBanner() {
  useOutboxRunner();
  const reach = useReachability();
  const was = useRef(reach);
  useEffect(() => {
    if (was.current === 'offline' && reach === 'online') toast.success(t.offline.back, { id: 'connection-back' });
    was.current = reach;
  }, [reach]);
  const entries = useOutboxEntries();
  const pending = entries.filter((e) => e.state === 'pending').length;
  const failed = entries.filter((e) => e.state === 'failed');
  if (reach === 'online' && failed.length === 0) return null;
  return (
    <div className="fixed inset-x-3 bottom-[calc(var(--bottom-bar-h,0px)+0.75rem)] z-50 mx-auto flex max-w-xl flex-col gap-2 print:hidden">
      {failed.length > 0 && (
        <ul className="max-h-48 space-y-2 overflow-y-auto" aria-label={t.offline.failed} data-testid="outbox-failed">
          {failed.map((e) => (
            <li
              key={e.id}
              className="flex items-start gap-2 rounded-lg border border-rose-200 bg-rose-50 p-3 text-sm text-rose-900 shadow-lg"
            >
              <TriangleAlert className="mt-0.5 h-4 w-4 shrink-0" aria-hidden />
              <div className="min-w-0 flex-1">
                <p className="font-semibold break-words">
                  {e.label} <span className="ml-1 rounded-full bg-rose-200 px-2 py-0.5 text-xs whitespace-nowrap">{t.offline.failed}</span>
                </p>
                <p className="mt-0.5 break-words">{e.error}</p>
              </div>
              <button
                type="button"
                className="-m-1 flex h-11 w-11 shrink-0 items-center justify-center rounded-lg hover:bg-rose-100"
                aria-label={`${t.offline.dismiss}: ${e.label}`}
                title={t.offline.dismiss}
                onClick={() => void outbox.dismiss(e.id)}
              >
                <X className="h-4 w-4" aria-hidden />
              </button>
            </li>
          ))}
        </ul>
      )}
      {reach === 'offline' && (
        <div
          role="status"
          data-testid="offline-banner"
          className="flex items-start gap-3 rounded-lg bg-slate-900 px-4 py-3 text-sm text-white shadow-lg"
        >
          <CloudOff className="mt-0.5 h-5 w-5 shrink-0 text-amber-400" aria-hidden />
          <div>
            <p className="font-medium">{t.offline.banner}</p>
            {pending > 0 && <p className="mt-1 text-amber-300">{t.offline.pendingCount(pending)}</p>}
          </div>
        </div>
      )}
    </div>
  );
}
