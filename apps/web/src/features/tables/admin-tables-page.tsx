import { useState } from 'react';
import { useNavigate } from 'react-router';
import { toast } from 'sonner';
import { AlertTriangle, Unlock, User } from 'lucide-react';
import type { Table, TableOrderSummary } from '@comanda/contract';
import { isBarTable, tableLabel } from '@comanda/domain';
import { Badge } from '../../components/ui/badge.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Card } from '../../components/ui/card.tsx';
import { cn } from '../../components/ui/cn.ts';
import { ConfirmDialog } from '../../components/ui/confirm-dialog.tsx';
import { EmptyState, ErrorState } from '../../components/ui/empty-state.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { errorMessage } from '../../lib/api.ts';
import { money } from '../../lib/format.ts';
import { t } from '../../lib/i18n/es-MX.ts';
import { useNow } from '../../lib/use-now.ts';
import { OrderStats } from './table-card-parts.tsx';
import { useReleaseTable, useTables } from './tables-api.ts';
import { useOpenAndGo } from './use-open-and-go.ts';
import { BarTabs } from './bar-tabs.tsx';

export function AdminTablesPage() {
  const tables = useTables();
  const now = useNow(30_000);
  const { open, opening } = useOpenAndGo('/admin');
  const occupied = tables.data?.filter((x) => x.status === 'ocupada').length ?? 0;
  return (
    <div className="space-y-5">
      <div className="flex flex-wrap items-end justify-between gap-2">
        <h1 className="text-2xl font-bold">{t.tables.panelTitle}</h1>
        {tables.data && <p className="text-sm text-slate-600">{t.tables.summary(occupied, tables.data.length - occupied)}</p>}
      </div>
      {/* On a phone the occupied tables are one tap away, wherever they sit in the list. */}
      {occupied > 0 && (
        <nav aria-label={t.tables.jumpTitle} className="flex flex-wrap gap-2 lg:hidden">
          {tables.data
            ?.filter((x) => x.status === 'ocupada')
            .map((x) => (
              <button
                key={x.id}
                type="button"
                aria-label={t.tables.jumpTo(tableLabel(x.number))}
                onClick={() => document.querySelector(`[data-testid="table-card-${x.number}"]`)?.scrollIntoView({ block: 'center' })}
                className="flex h-11 items-center rounded-full bg-slate-900 px-4 text-sm font-semibold text-white"
              >
                {tableLabel(x.number)}
              </button>
            ))}
        </nav>
      )}
      <BarTabs tables={tables.data} area="/admin" />
      {tables.isPending ? (
        <Spinner />
      ) : tables.isError ? (
        <ErrorState message={t.tables.loadError} onRetry={() => void tables.refetch()} />
      ) : tables.data.length === 0 ? (
        <EmptyState title={t.tables.empty} />
      ) : (
        // Spec order kept. Occupied tables carry the weight (full cards, two columns wide on a
        // phone); free ones are quiet half-width tiles, so the busy tables are a short scroll away.
        <div className="grid grid-cols-2 gap-3 sm:gap-4 xl:grid-cols-3 2xl:grid-cols-4">
          {tables.data.map((table) => (
            <AdminTableCard key={table.id} table={table} now={now} onOpen={open} opening={opening} />
          ))}
        </div>
      )}
    </div>
  );
}

/** What a free card needs of the page's open: the action, and which table is being opened (or none). */
interface OpenProps {
  onOpen: (table: Table) => void;
  opening: string | null;
}

function AdminTableCard({ table, now, onOpen, opening }: { table: Table; now: number } & OpenProps) {
  const label = tableLabel(table.number);
  if (table.status === 'libre') return <FreeCard table={table} label={label} onOpen={onOpen} opening={opening} />;
  return (
    <Card
      className={cn(
        'col-span-2 flex flex-col gap-3 border-l-4 p-4 shadow-md sm:col-span-1',
        table.order ? 'border-l-emerald-600' : 'border-l-amber-500',
      )}
      role="group"
      data-testid={`table-card-${table.number}`}
      aria-label={label}
    >
      <div className="flex items-start justify-between gap-2">
        <div className="min-w-0">
          <h2 className="text-lg font-bold">{label}</h2>
          {table.order?.tableName && <p className="truncate text-sm italic text-slate-600">{table.order.tableName}</p>}
        </div>
        {table.order ? <Badge tone="success">{t.tables.active}</Badge> : <Badge tone="warning">{t.tables.occupied}</Badge>}
      </div>
      {table.order ? <OccupiedBody table={table} order={table.order} now={now} /> : <OrphanBody table={table} label={label} />}
    </Card>
  );
}

function OccupiedBody({ table, order, now }: { table: Table; order: TableOrderSummary; now: number }) {
  const navigate = useNavigate();
  return (
    <>
      <p className="flex items-center gap-1.5 text-sm text-slate-700">
        <User className="h-4 w-4 shrink-0" aria-hidden />
        <span className="truncate">{order.waiterName ?? table.waiterName ?? t.tables.unassigned}</span>
      </p>
      <OrderStats order={order} now={now} />
      {/* Cards in a row share a height; the total and buttons line up at the bottom. */}
      <div className="mt-auto flex items-center justify-between border-t border-slate-100 pt-3">
        <Badge tone="info">{t.tables.orderStatus[order.status]}</Badge>
        <span className="text-xl font-bold tabular-nums" data-testid="table-total">
          {money(order.subtotal)}
        </span>
      </div>
      <div className="grid grid-cols-2 gap-2">
        <Button variant="outline" onClick={() => navigate(`/admin/order/${table.id}`)}>
          {t.tables.viewOrder}
        </Button>
        <Button
          variant="success"
          disabled={!order.canCharge}
          title={order.canCharge ? undefined : t.order.cannotCharge}
          onClick={() => navigate(`/admin/checkout/${order.id}`)}
        >
          {t.tables.charge}
        </Button>
      </div>
    </>
  );
}

/** Occupied without an active order: the spec's warning, and the way to make the table usable again. */
function OrphanBody({ table, label }: { table: Table; label: string }) {
  const [confirming, setConfirming] = useState(false);
  const release = useReleaseTable();
  // The answer's promise, not mutate()'s callbacks: the table's live event often frees this card before it.
  const confirm = () =>
    void release
      .mutateAsync(table.id)
      .then(
        () => toast.success(t.tables.released(label)),
        (error: Error) => toast.error(errorMessage(error, t.tables.releaseError)),
      )
      .finally(() => setConfirming(false));
  return (
    <>
      <div role="alert" className="flex items-start gap-2 rounded-lg bg-amber-50 p-3 text-sm text-amber-800">
        <AlertTriangle className="mt-0.5 h-4 w-4 shrink-0" aria-hidden />
        <div>
          <p className="font-medium">{t.tables.orphanWarning}</p>
          <p>{t.tables.orphanHint}</p>
        </div>
      </div>
      {table.waiterName && (
        <p className="flex items-center gap-1.5 text-sm text-slate-700">
          <User className="h-4 w-4 shrink-0" aria-hidden />
          <span className="truncate">{table.waiterName}</span>
        </p>
      )}
      <Button variant="outline" className="mt-auto" onClick={() => setConfirming(true)} disabled={release.isPending}>
        <Unlock className="h-4 w-4" aria-hidden />
        {t.tables.release}
      </Button>
      <ConfirmDialog
        open={confirming}
        title={t.tables.releaseTitle}
        message={t.tables.confirmRelease(label)}
        confirmLabel={t.tables.release}
        busy={release.isPending}
        onConfirm={confirm}
        onClose={() => setConfirming(false)}
      />
    </>
  );
}

function FreeCard({ table, label, onOpen, opening }: { table: Table; label: string } & OpenProps) {
  return (
    <Card
      className="flex flex-col justify-between gap-2 self-start border-dashed bg-slate-50 p-3 shadow-none"
      role="group"
      data-testid={`table-card-${table.number}`}
      aria-label={label}
    >
      <div className="flex items-start justify-between gap-2">
        <h2 className="text-base font-semibold whitespace-nowrap text-slate-700">{label}</h2>
        <Badge>{t.tables.free}</Badge>
      </div>
      <Button variant="outline" onClick={() => onOpen(table)} disabled={opening !== null}>
        {opening === table.id ? t.tables.opening : isBarTable(table.number) ? t.tables.openBar : t.tables.open}
      </Button>
    </Card>
  );
}
