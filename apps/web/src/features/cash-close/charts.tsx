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

// The bars are shared with Reportes: they live in components/charts.tsx.
export { BarList, type BarRow } from '../../components/charts.tsx';
