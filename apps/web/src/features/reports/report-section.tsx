import type { ReactNode } from 'react';
import type { ReportKind } from '@comanda/contract';
import { Card } from '../../components/ui/card.tsx';
import { t } from '../../lib/i18n/es-MX.ts';
import { exportUrl } from './reports-api.ts';

const link = 'rounded-md border border-slate-300 px-2 py-1 text-xs font-medium text-slate-700 hover:bg-slate-100';

/** One report: title, its own CSV / Excel downloads, a chart and the table of figures. */
export function ReportSection(props: {
  id: Exclude<ReportKind, 'todos'>;
  title: string;
  hint?: string;
  from: string;
  to: string;
  wide?: boolean;
  children: ReactNode;
}) {
  return (
    <Card className={`space-y-3 p-4 ${props.wide ? 'xl:col-span-2' : ''}`} data-testid={`report-${props.id}`}>
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div>
          <h2 className="font-semibold text-slate-900">{props.title}</h2>
          {props.hint && <p className="text-xs text-slate-600">{props.hint}</p>}
        </div>
        <div className="flex gap-1.5">
          <a
            className={link}
            href={exportUrl('csv', props.from, props.to, props.id)}
            download
            aria-label={t.reports.exportOne(props.title, 'CSV')}
          >
            CSV
          </a>
          <a
            className={link}
            href={exportUrl('xlsx', props.from, props.to, props.id)}
            download
            aria-label={t.reports.exportOne(props.title, 'Excel')}
          >
            Excel
          </a>
        </div>
      </div>
      {props.children}
    </Card>
  );
}
