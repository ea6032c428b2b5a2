import { useState, type ReactNode } from 'react';
import { BarChart3, Download } from 'lucide-react';
import { useQuery } from '@tanstack/react-query';
import { DEFAULT_SHIFT, DEFAULT_TIMEZONE, dayStartHour, defaultReportRange } from '@comanda/domain';
import type { ReportsResponse } from '@comanda/contract';
import { Card } from '../../components/ui/card.tsx';
import { EmptyState, ErrorState } from '../../components/ui/empty-state.tsx';
import { Input, Label } from '../../components/ui/input.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { errorMessage } from '../../lib/api.ts';
import { generalConfigQuery } from '../../lib/config.ts';
import { money } from '../../lib/format.ts';
import { t } from '../../lib/i18n/es-MX.ts';
import { exportUrl, useReports } from './reports-api.ts';
import { CategoriesSection, HoursSection, MethodsSection, ProductsSection, WeekdaysSection } from './sales-sections.tsx';
import { LossesSection, WaitersSection } from './people-sections.tsx';
import { TaxesSection } from './tax-section.tsx';

const r = t.reports;
const button =
  'inline-flex h-11 items-center gap-2 rounded-lg border border-slate-300 bg-white px-4 text-sm font-medium text-slate-800 hover:bg-slate-100';

function Stat({ label, value }: { label: string; value: string }) {
  return (
    <div className="rounded-xl border border-slate-200 bg-white p-4 shadow-sm">
      <p className="text-sm text-slate-600">{label}</p>
      <p className="mt-1 text-2xl font-bold tabular-nums text-slate-900">{value}</p>
    </div>
  );
}

function Totals({ report }: { report: ReportsResponse }) {
  const s = report.totals;
  return (
    <div className="grid grid-cols-2 gap-3 md:grid-cols-3 xl:grid-cols-6" data-testid="report-totals">
      <Stat label={r.sales} value={money(s.total)} />
      <Stat label={r.tickets} value={String(s.orders)} />
      <Stat label={r.averageTicket} value={money(s.averageTicket)} />
      <Stat label={r.tips} value={money(s.tips)} />
      <Stat label={r.items} value={String(s.items)} />
      <Stat label={r.discounts} value={money(s.discount + s.comp)} />
    </div>
  );
}

function DateField({ id, label, value, onChange }: { id: string; label: string; value: string; onChange: (v: string) => void }) {
  return (
    <div>
      <Label htmlFor={id}>{label}</Label>
      <Input id={id} type="date" value={value} required onChange={(e) => e.target.value && onChange(e.target.value)} className="w-44" />
    </div>
  );
}

/**
 * Reportes: every owner report for a range of business days, with charts, tables and exports. It
 * opens on the last seven business days, ending on the one under way: the business's time zone,
 * not the device's (a tablet set to another zone), and its day-start hour (the shift's end, as the
 * server counts report days), so at 02:00 the night before is still the last day. Both come with
 * the business information, read before the first report.
 */
export function ReportsPage() {
  const config = useQuery(generalConfigQuery);
  if (config.isPending) return <Spinner label={r.loading} />;
  // Without the settings (a failed read) the defaults every screen falls back on: Mexico City, 17:00–03:00.
  const { timezone = DEFAULT_TIMEZONE, shiftStartHour = DEFAULT_SHIFT.startHour, shiftEndHour = DEFAULT_SHIFT.endHour } = config.data ?? {};
  return <ReportsScreen initial={defaultReportRange(Date.now(), timezone, dayStartHour(shiftStartHour, shiftEndHour))} />;
}

function ReportsScreen({ initial }: { initial: { from: string; to: string } }) {
  const [to, setTo] = useState(initial.to);
  const [from, setFrom] = useState(initial.from);
  const valid = from <= to;
  const query = useReports(from, to, valid);
  const data = query.data;
  let body: ReactNode = null;
  if (!valid)
    body = (
      <p className="rounded-lg bg-rose-50 p-3 text-sm text-rose-800" role="alert">
        {r.rangeError}
      </p>
    );
  else if (query.isPending) body = <Spinner label={r.loading} />;
  else if (query.isError) body = <ErrorState message={errorMessage(query.error, r.loadError)} onRetry={() => void query.refetch()} />;
  else if (data && data.totals.orders === 0 && data.losses.totals.every((k) => k.count === 0))
    body = (
      <Card className="p-2">
        <EmptyState icon={<BarChart3 className="h-8 w-8" aria-hidden />} title={r.empty}>
          <p className="text-sm text-slate-600">{r.emptyHint}</p>
        </EmptyState>
      </Card>
    );
  else if (data)
    body = (
      <div className={query.isPlaceholderData ? 'space-y-4 opacity-60' : 'space-y-4'} aria-busy={query.isFetching}>
        <Totals report={data} />
        <div className="grid gap-4 xl:grid-cols-2">
          <HoursSection report={data} />
          <WeekdaysSection report={data} />
          <MethodsSection report={data} />
          <TaxesSection report={data} />
          <ProductsSection report={data} />
          <CategoriesSection report={data} />
          <WaitersSection report={data} />
          <LossesSection report={data} />
        </div>
      </div>
    );

  return (
    <div className="space-y-6">
      <div className="flex flex-col gap-4 md:flex-row md:items-end md:justify-between">
        <div>
          <h1 className="text-2xl font-bold text-slate-900">{r.title}</h1>
          {data && (
            <p className="text-sm text-slate-600">{r.subtitle(data.timezone, `${String(data.dayStartHour).padStart(2, '0')}:00`)}</p>
          )}
        </div>
        <div className="flex shrink-0 flex-wrap items-end gap-2">
          <DateField id="report-from" label={r.from} value={from} onChange={setFrom} />
          <DateField id="report-to" label={r.to} value={to} onChange={setTo} />
          <a href={valid ? exportUrl('csv', from, to) : undefined} download className={button}>
            <Download className="h-4 w-4" aria-hidden />
            {r.exportCsv}
          </a>
          <a href={valid ? exportUrl('xlsx', from, to) : undefined} download className={button}>
            <Download className="h-4 w-4" aria-hidden />
            {r.exportXlsx}
          </a>
        </div>
      </div>
      {body}
    </div>
  );
}
