import { CloudUpload } from 'lucide-react';
import { Badge } from '../../components/ui/badge.tsx';
import { money } from '../../lib/format.ts';
import { t } from '../../lib/i18n/es-MX.ts';
import type { OutboxEntry } from '../../lib/outbox/index.ts';

/** Items and units made on this device that the server does not have yet: muted, not counted, labelled. */
export function PendingLines({ entries }: { entries: OutboxEntry[] }) {
  if (entries.length === 0) return null;
  return (
    <ul className="divide-y divide-dashed divide-slate-200 border-t border-dashed border-slate-200" aria-label={t.offline.pending}>
      {entries.map((e) =>
        e.preview ? (
          <li key={e.id} className="flex gap-3 py-3 text-slate-500" data-testid="pending-item">
            <div className="min-w-0 flex-1">
              <p className="font-semibold break-words">
                {e.preview.quantity} × {e.preview.productName}
              </p>
              <div className="mt-1 flex flex-wrap items-center gap-2">
                <Badge tone="neutral" className="gap-1 border border-dashed border-slate-300 bg-white">
                  <CloudUpload className="h-3 w-3" aria-hidden />
                  {t.offline.pending}
                </Badge>
                {e.preview.productPrice !== null && <span className="text-sm">{t.order.unitPrice(money(e.preview.productPrice))}</span>}
              </div>
              {e.preview.modifiers && e.preview.modifiers.length > 0 && (
                <p className="mt-1 rounded bg-sky-50 px-2 py-0.5 text-sm break-words text-sky-950">{e.preview.modifiers.join(' · ')}</p>
              )}
              {e.preview.notes && <p className="mt-1.5 rounded bg-slate-50 px-2 py-1 text-sm break-words">{e.preview.notes}</p>}
            </div>
            {e.preview.productPrice !== null && (
              <span className="shrink-0 font-semibold text-slate-600 tabular-nums">
                {money(e.preview.productPrice * e.preview.quantity)}
              </span>
            )}
          </li>
        ) : null,
      )}
    </ul>
  );
}
