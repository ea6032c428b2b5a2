import { useState } from 'react';
import { toast } from 'sonner';
import { ClipboardList } from 'lucide-react';
import { BOARD_STATUSES, type BoardStatus } from '@comanda/domain';
import { Spinner } from '../../components/ui/spinner.tsx';
import { EmptyState, ErrorState } from '../../components/ui/empty-state.tsx';
import { Tabs } from '../../components/ui/tabs.tsx';
import { errorMessage } from '../../lib/api.ts';
import { useBoardItems, useSetItemStatus } from '../../lib/board.ts';
import { t } from '../../lib/i18n/es-MX.ts';
import { PanelCard } from './panel-card.tsx';
import { filterPanelItems, panelCounters, type AreaFilter, type StatusFilter } from './panel-model.ts';

const AREAS: { value: AreaFilter; label: string }[] = [
  { value: 'all', label: t.panel.areaAll },
  { value: 'cocina', label: t.panel.areaKitchen },
  { value: 'barra', label: t.panel.areaBar },
];
const STATUSES: { value: StatusFilter; label: string }[] = [
  { value: 'all', label: t.panel.statusAll },
  ...BOARD_STATUSES.map((s) => ({ value: s, label: t.panel.statuses[s] })),
];
const COUNTER_TONE: Record<BoardStatus, string> = {
  pendiente: 'border-amber-400',
  listo: 'border-emerald-500',
  entregado: 'border-slate-400',
};

/** Admin control of every item of the open orders, kitchen and bar together. */
export function PanelPage() {
  const [area, setArea] = useState<AreaFilter>('all');
  const [status, setStatus] = useState<StatusFilter>('all');
  const query = useBoardItems('all', 'panel');
  const change = useSetItemStatus((error) => toast.error(t.panel.updateError, { description: errorMessage(error, '') || undefined }));
  const busyId = change.isPending ? change.variables.item.id : null;
  const all = query.data?.items ?? [];
  const counters = panelCounters(all, area);
  const shown = filterPanelItems(all, area, status);

  return (
    <div className="flex flex-col gap-5">
      <h1 className="text-2xl font-bold text-slate-900">{t.panel.title}</h1>
      <div className="flex flex-col gap-3 md:flex-row md:items-center md:justify-between">
        <Tabs label={t.panel.areaLabel} tabs={AREAS} value={area} onChange={setArea} />
        <Tabs label={t.panel.statusLabel} tabs={STATUSES} value={status} onChange={setStatus} />
      </div>
      <dl className="grid grid-cols-3 gap-3">
        {BOARD_STATUSES.map((s) => (
          <div key={s} className={`rounded-xl border-l-4 bg-white p-4 shadow-sm ${COUNTER_TONE[s]}`} data-testid={`panel-counter-${s}`}>
            <dt className="text-sm font-medium text-slate-500">{t.panel.counters[s]}</dt>
            <dd className="text-3xl font-black tabular-nums text-slate-900">{counters[s]}</dd>
          </div>
        ))}
      </dl>
      {query.isPending ? (
        <Spinner />
      ) : query.isError ? (
        <ErrorState message={t.panel.loadError} onRetry={() => void query.refetch()} retryLabel={t.app.retry} />
      ) : shown.length === 0 ? (
        <EmptyState title={t.panel.empty} icon={<ClipboardList className="h-8 w-8 text-slate-400" aria-hidden />} />
      ) : (
        <div className="grid gap-3 sm:grid-cols-2 xl:grid-cols-3">
          {shown.map((item) => (
            <PanelCard
              key={item.id}
              item={item}
              busy={busyId === item.id}
              onChange={(i, next) => change.mutate({ item: i, status: next })}
            />
          ))}
        </div>
      )}
    </div>
  );
}
