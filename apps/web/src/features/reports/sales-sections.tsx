import type { ReportsResponse } from '@comanda/contract';
import { BarList, ColumnChart } from '../../components/charts.tsx';
import { money } from '../../lib/format.ts';
import { t } from '../../lib/i18n/es-MX.ts';
import { FigureTable } from './figure-table.tsx';
import { ReportSection } from './report-section.tsx';

type Props = { report: ReportsResponse };
const hourLabel = (h: number) => `${String(h).padStart(2, '0')}:00`;
const r = t.reports;

export function HoursSection({ report }: Props) {
  return (
    <ReportSection id="horas" title={r.byHour} from={report.from} to={report.to} wide>
      <ColumnChart
        label={r.byHour}
        testId="hours-chart"
        columns={report.byHour.map((h) => ({
          key: String(h.hour),
          label: hourLabel(h.hour),
          short: String(h.hour).padStart(2, '0'),
          value: h.total,
          display: money(h.total),
        }))}
      />
      <FigureTable
        caption={r.byHour}
        rows={report.byHour.filter((h) => h.orders > 0)}
        rowKey={(h) => String(h.hour)}
        columns={[
          { header: r.hour, cell: (h) => hourLabel(h.hour) },
          { header: r.tickets, cell: (h) => h.orders, numeric: true },
          { header: r.sales, cell: (h) => money(h.total), numeric: true },
          { header: r.tips, cell: (h) => money(h.tips), numeric: true },
        ]}
      />
    </ReportSection>
  );
}

export function WeekdaysSection({ report }: Props) {
  return (
    <ReportSection id="dias" title={r.byWeekday} from={report.from} to={report.to}>
      <ColumnChart
        label={r.byWeekday}
        testId="weekdays-chart"
        columns={report.byWeekday.map((d) => ({
          key: String(d.weekday),
          label: r.weekdays[d.weekday] ?? '',
          short: r.weekdaysShort[d.weekday] ?? '',
          value: d.total,
          display: money(d.total),
        }))}
      />
      <FigureTable
        caption={r.byWeekday}
        rows={report.byWeekday}
        rowKey={(d) => String(d.weekday)}
        columns={[
          { header: r.weekday, cell: (d) => r.weekdays[d.weekday] },
          { header: r.daysWithSales, cell: (d) => d.days, numeric: true },
          { header: r.tickets, cell: (d) => d.orders, numeric: true },
          { header: r.sales, cell: (d) => money(d.total), numeric: true },
        ]}
      />
    </ReportSection>
  );
}

export function MethodsSection({ report }: Props) {
  const label = (m: string) => r.methodLabels[m] ?? m;
  return (
    <ReportSection id="metodos" title={r.methods} from={report.from} to={report.to}>
      <BarList
        testId="methods-bars"
        color="bg-emerald-500"
        rows={report.methods.map((m) => ({ key: m.method, label: label(m.method), value: m.amount, display: money(m.amount) }))}
      />
      <FigureTable
        caption={r.methods}
        rows={report.methods}
        rowKey={(m) => m.method}
        columns={[
          { header: r.method, cell: (m) => label(m.method) },
          { header: r.payments, cell: (m) => m.payments, numeric: true },
          { header: r.amount, cell: (m) => money(m.amount), numeric: true },
          { header: r.tips, cell: (m) => money(m.tips), numeric: true },
        ]}
      />
    </ReportSection>
  );
}

export function ProductsSection({ report }: Props) {
  return (
    <ReportSection id="productos" title={r.products} from={report.from} to={report.to}>
      <BarList
        testId="products-bars"
        rows={report.products
          .slice(0, 8)
          .map((p) => ({ key: p.productId, label: p.productName, value: p.amount, display: money(p.amount), detail: r.unitsOf(p.units) }))}
      />
      <FigureTable
        caption={r.products}
        rows={report.products}
        rowKey={(p) => `${p.productId}-${p.category}`}
        columns={[
          { header: r.product, cell: (p) => p.productName },
          { header: r.category, cell: (p) => p.category },
          { header: r.units, cell: (p) => p.units, numeric: true },
          { header: r.amount, cell: (p) => money(p.amount), numeric: true },
        ]}
      />
    </ReportSection>
  );
}

export function CategoriesSection({ report }: Props) {
  return (
    <ReportSection id="categorias" title={r.categories} from={report.from} to={report.to}>
      <BarList
        testId="categories-bars"
        color="bg-violet-500"
        rows={report.categories.map((c) => ({
          key: c.category,
          label: c.category,
          value: c.amount,
          display: money(c.amount),
          detail: r.unitsOf(c.units),
        }))}
      />
      <FigureTable
        caption={r.categories}
        rows={report.categories}
        rowKey={(c) => c.category}
        columns={[
          { header: r.category, cell: (c) => c.category },
          { header: r.units, cell: (c) => c.units, numeric: true },
          { header: r.amount, cell: (c) => money(c.amount), numeric: true },
        ]}
      />
    </ReportSection>
  );
}
