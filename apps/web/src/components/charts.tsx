import { t } from '../lib/i18n/es-MX.ts';

/** Hand-made CSS charts (no chart library): vertical columns and horizontal bars. */
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

/** Vertical columns with a short label under each (hours of the day, days of the week). */
export function ColumnChart({ label, columns, testId }: { label: string; columns: (BarRow & { short: string })[]; testId?: string }) {
  const max = Math.max(1, ...columns.map((c) => c.value));
  return (
    <figure aria-label={label} data-testid={testId}>
      <ol className="flex h-44 items-stretch gap-1 border-b border-slate-300">
        {columns.map((c) => (
          <li key={c.key} className="flex min-w-0 flex-1 flex-col justify-end" title={`${c.label} · ${c.display}`}>
            <div
              className="mx-auto w-full max-w-14 rounded-t-md bg-brand-500"
              style={{ height: `${(c.value / max) * 90}%`, minHeight: c.value > 0 ? 2 : 0 }}
            />
            <span className="sr-only">{`${c.label}: ${c.display}`}</span>
          </li>
        ))}
      </ol>
      <ol className="mt-1 flex gap-1" aria-hidden>
        {columns.map((c) => (
          <li key={c.key} className="min-w-0 flex-1 truncate text-center text-[11px] text-slate-600">
            {c.short}
          </li>
        ))}
      </ol>
    </figure>
  );
}
