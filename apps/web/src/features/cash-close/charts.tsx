import type { HourSales } from '@comanda/contract';
import { money } from '../../lib/format.ts';
import { t } from '../../lib/i18n/es-MX.ts';
import { compactMoney, hourLabel } from './report-format.ts';

/** Sales per business-local hour of the shift, as hand-made CSS bars (no chart library). */
export function HourChart({ hours }: { hours: HourSales[] }) {
  const max = Math.max(1, ...hours.map((h) => h.total));
  return (
    <figure aria-label={t.cashClose.byHour} data-testid="hour-chart">
      <ol className="flex h-52 items-stretch gap-1.5 border-b border-slate-300 sm:gap-3">
        {hours.map((h) => (
          <li
            key={h.start}
            className="flex min-w-0 flex-1 flex-col justify-end"
            title={`${hourLabel(h.hour)} · ${money(h.total)} · ${t.cashClose.orders(h.orders)}`}
          >
            {h.total > 0 && (
              <span className="mb-1 truncate text-center text-[11px] font-semibold tabular-nums text-slate-700">
                {compactMoney(h.total)}
              </span>
            )}
            <div
              className="mx-auto w-full max-w-12 rounded-t-md bg-brand-500"
              style={{ height: `${(h.total / max) * 85}%`, minHeight: h.total > 0 ? 2 : 0 }}
            />
            <span className="sr-only">{`${hourLabel(h.hour)}: ${money(h.total)}`}</span>
          </li>
        ))}
      </ol>
      <ol className="mt-1 flex gap-1.5 sm:gap-3" aria-hidden>
        {hours.map((h) => (
          <li key={h.start} className="min-w-0 flex-1 truncate text-center text-[11px] text-slate-500">
            {hourLabel(h.hour)}
          </li>
        ))}
      </ol>
    </figure>
  );
}

export interface BarRow {
  key: string;
  label: string;
  value: number;
  /** What the bar reads as, e.g. '$1,234.00' or '12 unidades'. */
  display: string;
  detail?: string;
}

/** Horizontal CSS bars, longest first as given. */
export function BarList({ rows, color = 'bg-brand-500', testId }: { rows: BarRow[]; color?: string; testId?: string }) {
  const max = Math.max(1, ...rows.map((r) => r.value));
  if (rows.length === 0) return <p className="py-6 text-center text-sm text-slate-600">{t.cashClose.noData}</p>;
  return (
    <ol className="space-y-3" data-testid={testId}>
      {rows.map((row) => (
        <li key={row.key}>
          <div className="flex items-baseline justify-between gap-3 text-sm">
            <span className="min-w-0 truncate font-medium text-slate-800">{row.label}</span>
            <span className="shrink-0 tabular-nums text-slate-900">{row.display}</span>
          </div>
          <div className="mt-1 h-2.5 rounded-full bg-slate-100 print:border print:border-slate-300">
            <div className={`h-2.5 rounded-full ${color}`} style={{ width: `${Math.max(2, (row.value / max) * 100)}%` }} />
          </div>
          {row.detail && <p className="mt-0.5 text-xs text-slate-500">{row.detail}</p>}
        </li>
      ))}
    </ol>
  );
}
