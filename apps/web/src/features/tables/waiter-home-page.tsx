import { useId, type ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { AlertTriangle, Loader2, Lock, Plus } from 'lucide-react';
import type { Table } from '@comanda/contract';
import { isBarTable, tableLabel } from '@comanda/domain';
import { Badge } from '../../components/ui/badge.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Card } from '../../components/ui/card.tsx';
import { EmptyState, ErrorState } from '../../components/ui/empty-state.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { money } from '../../lib/format.ts';
import { t } from '../../lib/i18n/es-MX.ts';
import { useSession } from '../../lib/session.ts';
import { useNow } from '../../lib/use-now.ts';
import { OrderStats } from './table-card-parts.tsx';
import { useTables } from './tables-api.ts';
import { useOpenAndGo } from './use-open-and-go.ts';
import { BarTabs } from './bar-tabs.tsx';
import { tableTotal } from './table-total.ts';

/**
 * Own occupied tables first, then free ones, then other waiters' (each group already bar-first).
 * The waiter's own Barra is listed once, tab by tab with their names, in the Barra's list above
 * the groups: its card would repeat the first tab without its name. `assigned` still counts it.
 */
function groupTables(tables: Table[], userId: string) {
  const mine = tables.filter((x) => x.status === 'ocupada' && x.waiterId === userId);
  const own = mine.filter((x) => !isBarTable(x.number));
  const free = tables.filter((x) => x.status === 'libre');
  const others = tables.filter((x) => x.status === 'ocupada' && x.waiterId !== userId);
  return { own, assigned: mine.length, free, others };
}

export function WaiterHomePage() {
  const session = useSession();
  const tables = useTables();
  const now = useNow(30_000);
  const { open, opening } = useOpenAndGo('/waiter');
  const userId = session.data?.id ?? '';
  const groups = tables.data ? groupTables(tables.data, userId) : null;

  return (
    <div className="space-y-4 p-4 pb-24">
      <div>
        <h1 className="text-2xl font-bold">{t.tables.waiterHeading}</h1>
        {groups && (
          <p className="text-sm text-slate-600">{groups.assigned > 0 ? t.tables.assigned(groups.assigned) : t.tables.noneAssigned}</p>
        )}
      </div>
      <BarTabs tables={tables.data} area="/waiter" />
      {tables.isPending ? (
        <Spinner />
      ) : tables.isError || !groups ? (
        <ErrorState message={t.tables.loadError} onRetry={() => void tables.refetch()} />
      ) : tables.data.length === 0 ? (
        <EmptyState title={t.tables.empty} />
      ) : (
        <div className="space-y-5">
          <TableGroup title={t.tables.ownGroup} count={groups.own.length}>
            {groups.own.map((table) => (
              <OwnCard key={table.id} table={table} now={now} />
            ))}
          </TableGroup>
          <TableGroup title={t.tables.freeGroup} count={groups.free.length}>
            {groups.free.map((table) => (
              <FreeCard
                key={table.id}
                table={table}
                opening={opening === table.id}
                disabled={opening !== null}
                onOpen={() => open(table)}
              />
            ))}
          </TableGroup>
          <TableGroup title={t.tables.othersGroup} count={groups.others.length}>
            {groups.others.map((table) => (
              <OthersCard key={table.id} table={table} />
            ))}
          </TableGroup>
        </div>
      )}
    </div>
  );
}

/** One of the three groups (own, free, others) under a small heading; nothing when empty. */
function TableGroup({ title, count, children }: { title: string; count: number; children: ReactNode }) {
  const id = useId();
  if (count === 0) return null;
  return (
    <section aria-labelledby={id} className="space-y-2">
      <h2 id={id} className="text-xs font-semibold tracking-wide text-slate-500 uppercase">
        {title} · {count}
      </h2>
      <div className="grid grid-cols-2 gap-3 sm:grid-cols-3">{children}</div>
    </section>
  );
}

function OwnCard({ table, now }: { table: Table; now: number }) {
  const navigate = useNavigate();
  const order = table.order;
  const { total, checks } = tableTotal(table);
  return (
    <Card
      adds="col-span-2 flex flex-col gap-3 border-l-4 border-l-emerald-500 p-4 sm:col-span-3"
      role="group"
      data-testid={`table-card-${table.number}`}
      aria-label={tableLabel(table.number)}
    >
      <div className="flex items-start justify-between gap-2">
        <div className="min-w-0">
          <h3 className="text-lg font-bold">{tableLabel(table.number)}</h3>
          {order?.tableName && <p className="truncate text-sm italic text-slate-600">{order.tableName}</p>}
        </div>
        {order && (
          <div className="text-right">
            <span
              className="block text-xl font-bold tabular-nums"
              data-testid="table-total"
              aria-label={`${t.equalShares.tableTotal}: ${money(total)}`}
            >
              {money(total)}
            </span>
            {checks > 1 && (
              <span className="text-xs font-medium text-slate-600" data-testid="table-checks-count">
                {t.equalShares.checksCount(checks)}
              </span>
            )}
          </div>
        )}
      </div>
      {order ? (
        <>
          <OrderStats order={order} now={now} />
          <div className="grid grid-cols-2 gap-2">
            <Button variant="outline" size="lg" onClick={() => navigate(`/waiter/order/${table.id}`)}>
              {t.tables.viewOrder}
            </Button>
            <Button
              variant="success"
              size="lg"
              disabled={!order.canCharge}
              title={order.canCharge ? undefined : t.order.cannotCharge}
              onClick={() => navigate(`/waiter/checkout/${order.id}`, { state: { orderId: order.id, tableId: table.id } })}
            >
              {t.tables.charge}
            </Button>
          </div>
        </>
      ) : (
        <p role="alert" className="flex items-start gap-2 rounded-lg bg-amber-50 p-3 text-sm text-amber-800">
          <AlertTriangle className="mt-0.5 h-4 w-4 shrink-0" aria-hidden />
          {t.tables.orphanWarning}
        </p>
      )}
    </Card>
  );
}

function FreeCard({ table, opening, disabled, onOpen }: { table: Table; opening: boolean; disabled: boolean; onOpen: () => void }) {
  const label = tableLabel(table.number);
  return (
    <button
      type="button"
      onClick={onOpen}
      disabled={disabled}
      data-testid={`table-card-${table.number}`}
      aria-label={`${label}: ${isBarTable(table.number) ? t.tables.openBar : t.tables.open}`}
      className="flex min-h-28 flex-col items-start justify-between gap-2 rounded-xl border-2 border-dashed border-slate-300 bg-white p-4 text-left shadow-sm transition hover:border-brand-500 hover:bg-brand-50 focus-visible:outline-2 focus-visible:outline-brand-500 disabled:cursor-wait"
    >
      <span className="flex w-full items-center justify-between gap-2">
        <span className="text-lg font-bold whitespace-nowrap">{label}</span>
        <Badge>{t.tables.free}</Badge>
      </span>
      {opening ? (
        <span className="flex items-center gap-1.5 text-sm font-medium text-brand-700">
          <Loader2 className="h-4 w-4 animate-spin" aria-hidden />
          {t.tables.opening}
        </span>
      ) : (
        <span className="flex items-center gap-1.5 text-sm font-medium text-slate-600">
          <Plus className="h-4 w-4" aria-hidden />
          {isBarTable(table.number) ? t.tables.openBar : t.tables.open}
        </span>
      )}
    </button>
  );
}

function OthersCard({ table }: { table: Table }) {
  return (
    <div
      aria-disabled="true"
      data-testid={`table-card-${table.number}`}
      className="flex min-h-28 cursor-not-allowed flex-col items-start justify-between gap-2 rounded-xl border border-slate-200 bg-slate-100 p-4 opacity-60"
    >
      <span className="flex w-full items-center justify-between gap-2">
        <span className="text-lg font-bold whitespace-nowrap text-slate-600">{tableLabel(table.number)}</span>
        <Lock className="h-4 w-4 text-slate-500" aria-hidden />
      </span>
      <span className="text-sm font-medium text-slate-600">{t.tables.notAvailable}</span>
      {table.waiterName && <span className="w-full truncate text-xs text-slate-500">{t.tables.openedBy(table.waiterName)}</span>}
    </div>
  );
}
