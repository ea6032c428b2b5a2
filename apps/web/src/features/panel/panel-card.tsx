import type { BoardItem } from '@comanda/contract';
import { panelStatusOptions, progressPercent, STATIONS, tableLabel, type BoardStatus } from '@comanda/domain';
import { Badge, type BadgeTone } from '../../components/ui/badge.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Card } from '../../components/ui/card.tsx';
import { t } from '../../lib/i18n/es-MX.ts';
import { ModifierLines } from '../../components/modifier-lines.tsx';
import { panelStatus } from './panel-model.ts';

const TONE: Record<BoardStatus, BadgeTone> = { pendiente: 'warning', listo: 'success', entregado: 'neutral' };
const BAR: Record<BoardStatus, string> = { pendiente: 'bg-amber-500', listo: 'bg-emerald-500', entregado: 'bg-slate-500' };

interface Props {
  item: BoardItem;
  busy: boolean;
  onChange: (item: BoardItem, status: BoardStatus) => void;
}

/** One item with where it is in the kitchen/bar flow and a switcher to any other state. */
export function PanelCard({ item, busy, onChange }: Props) {
  const status = panelStatus(item);
  const percent = progressPercent(item.status);
  const station = STATIONS[item.station];
  return (
    <Card className="flex flex-col gap-3 p-4" data-testid="panel-card" data-item-id={item.id}>
      <div className="flex items-start justify-between gap-2">
        <div className="min-w-0">
          <p className="font-bold text-slate-900">
            {tableLabel(item.tableNumber)}
            {item.tableName && <span className="font-medium text-slate-500"> · {item.tableName}</span>}
          </p>
          <p className="text-sm text-slate-500">{item.waiterName ?? t.tables.unassigned}</p>
        </div>
        <Badge tone={TONE[status]}>{t.panel.statuses[item.status]}</Badge>
      </div>
      <p className="text-lg font-bold leading-snug text-slate-900 [overflow-wrap:anywhere]">
        <span className="tabular-nums">{item.quantity}×</span> {item.productName}
      </p>
      <ModifierLines modifiers={item.modifiers} className="mt-0 rounded-lg px-3 py-1.5" />
      {item.notes && (
        <p className="rounded-lg bg-amber-50 px-3 py-1.5 text-sm font-medium text-amber-900 [overflow-wrap:anywhere]">{item.notes}</p>
      )}
      <div className="flex items-center gap-2 text-xs font-semibold">
        <span className="rounded px-1.5 py-0.5 text-slate-950" style={{ backgroundColor: station.color }}>
          {station.label}
        </span>
        <span className="rounded bg-slate-100 px-1.5 py-0.5 text-slate-700">{item.category}</span>
      </div>
      <div>
        <div
          className="h-2.5 overflow-hidden rounded-full bg-slate-200"
          role="progressbar"
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={percent}
          aria-label={t.panel.progress(percent)}
        >
          <div className={`h-full rounded-full ${BAR[status]}`} style={{ width: `${percent}%` }} />
        </div>
        <p className="mt-1 text-right text-xs font-semibold tabular-nums text-slate-500">{percent}%</p>
      </div>
      <div className="flex flex-wrap items-center gap-2 border-t border-slate-100 pt-3">
        <span className="text-sm text-slate-500">{t.panel.changeTo}</span>
        {panelStatusOptions(item.status).map((option) => (
          <Button
            key={option}
            variant="outline"
            className="h-11 flex-1"
            disabled={busy}
            aria-label={t.panel.changeToLabel(t.panel.statuses[option])}
            onClick={() => onChange(item, option)}
          >
            {t.panel.statuses[option]}
          </Button>
        ))}
      </div>
    </Card>
  );
}
