import { PrinterX } from 'lucide-react';
import { t } from '../lib/i18n/es-MX.ts';
import { usePrintAlerts } from '../lib/printers.ts';
import { useSession } from '../lib/session.ts';
import { useNow } from '../lib/use-now.ts';

/** A banner listing the items a printer has not printed for minutes (on the admin layout and the boards). */
export function PrintAlertBanner() {
  const role = useSession().data?.role;
  const alerts = usePrintAlerts(role);
  const now = useNow();
  const list = alerts.data ?? [];
  if (!list.length) return null;
  return (
    <section
      role="alert"
      aria-label={t.printers.alertTitle}
      className="mb-4 rounded-xl border border-rose-300 bg-rose-50 p-4 text-rose-900 print:hidden"
    >
      <h2 className="flex items-center gap-2 font-bold">
        <PrinterX className="h-5 w-5" aria-hidden />
        {t.printers.alertTitle}
      </h2>
      {list.map((a) => (
        <div key={a.printerId} className="mt-2">
          <p className="text-sm font-semibold">
            {t.printers.alertPrinter(a.printerName, Math.floor((now - a.since) / 60_000))}
            {a.lastError ? ` · ${a.lastError}` : ''}
          </p>
          <ul className="mt-1 list-disc pl-5 text-sm">
            {a.items.map((item, i) => (
              <li key={i}>
                {item.table}: {item.quantity} × {item.name}
                {item.notes ? ` (${item.notes})` : ''}
              </li>
            ))}
          </ul>
        </div>
      ))}
      <p className="mt-2 text-xs">{t.printers.alertHint}</p>
    </section>
  );
}
