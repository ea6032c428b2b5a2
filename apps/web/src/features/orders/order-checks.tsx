import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { CreditCard, Divide, SplitSquareHorizontal } from 'lucide-react';
import type { Order, TableCheck } from '@comanda/contract';
import { activeItems, itemQuantity } from '@comanda/domain';
import { Button } from '../../components/ui/button.tsx';
import { Card } from '../../components/ui/card.tsx';
import { cn } from '../../components/ui/cn.ts';
import { money } from '../../lib/format.ts';
import { t } from '../../lib/i18n/es-MX.ts';
import { useTableChecks } from './checks-api.ts';
import { SplitChecksDialog } from './split-checks-dialog.tsx';
import { EqualSharesForm } from '../../components/equal-shares-form.tsx';

/** 'Cuenta C' → 2; names that are not a check letter count as nothing. */
function checkIndex(name: string | null): number {
  const match = name ? /^Cuenta ([A-Z])$/.exec(name) : null;
  return match ? match[1]!.charCodeAt(0) - 65 : 0;
}

/**
 * Separate checks on the order screen (docs/decisions/0014-checks-are-orders.md): the
 * "Cuentas separadas" entry, and the table's open checks (or the bar's tabs) with their totals,
 * each opened with `?cuenta=<orderId>` and charged on its own.
 */
export function OrderChecks({ order, tableId, area }: { order: Order; tableId: string; area: '/waiter' | '/admin' }) {
  const checks = useTableChecks(tableId);
  const [open, setOpen] = useState(false);
  const [equal, setEqual] = useState(false);
  const list = checks.data ?? [];
  const canSplit = order.status === 'activo' && itemQuantity(activeItems(order.items)) >= 2;
  // Equal shares: once, before any part is paid, on an order with items.
  const canShare =
    order.status === 'activo' &&
    activeItems(order.items).length > 0 &&
    order.payments.length === 0 &&
    !(order.shareAmount ?? 0) &&
    !(order.sharedOut ?? 0);
  const firstIndex = Math.max(0, ...list.map((c) => checkIndex(c.tabName))) + 1;
  return (
    <div className="space-y-3 print:hidden">
      {list.length > 1 ? (
        <ChecksList checks={list} order={order} tableId={tableId} area={area} />
      ) : (
        order.tabName && (
          <p className="font-semibold text-slate-700" data-testid="order-tab-name">
            {order.tabName}
          </p>
        )
      )}
      {canSplit && (
        <Button variant="outline" className="w-full" onClick={() => setOpen(true)} data-testid="split-checks">
          <SplitSquareHorizontal className="h-4 w-4" aria-hidden />
          {t.checks.splitButton}
        </Button>
      )}
      {canShare &&
        (equal ? (
          <Card className="p-3">
            <EqualSharesForm order={order} onDone={() => setEqual(false)} />
          </Card>
        ) : (
          <Button variant="outline" className="w-full" onClick={() => setEqual(true)} data-testid="equal-shares">
            <Divide className="h-4 w-4" aria-hidden />
            {t.equalShares.title}
          </Button>
        ))}
      {canSplit && <SplitChecksDialog order={order} tableId={tableId} open={open} onClose={() => setOpen(false)} firstIndex={firstIndex} />}
    </div>
  );
}

function ChecksList({ checks, order, tableId, area }: { checks: TableCheck[]; order: Order; tableId: string; area: string }) {
  const navigate = useNavigate();
  return (
    <Card className="space-y-2 p-3" data-testid="table-checks">
      <h2 className="text-sm font-semibold text-slate-600">{order.tableNumber === 0 ? t.checks.barListTitle : t.checks.listTitle}</h2>
      <ul className="divide-y divide-slate-100">
        {checks.map((check) => {
          const here = check.id === order.id;
          return (
            <li key={check.id} className="flex items-center gap-2 py-2" data-testid="table-check">
              <Link
                to={`${area}/order/${tableId}?cuenta=${check.id}`}
                className={cn('min-w-0 flex-1 truncate font-medium', here ? 'text-brand-700' : 'text-slate-800 hover:underline')}
                aria-current={here ? 'page' : undefined}
              >
                {check.tabName ?? t.checks.unnamed}
                {here && <span className="ml-2 text-xs text-slate-500">({t.checks.current})</span>}
              </Link>
              <span className="font-bold tabular-nums" data-testid="table-check-total">
                {money(check.total ?? check.subtotal)}
              </span>
              <Button
                variant="success"
                size="sm"
                disabled={!check.canCharge}
                title={check.canCharge ? undefined : t.order.cannotCharge}
                aria-label={`${t.checks.charge} ${check.tabName ?? t.checks.unnamed}`}
                onClick={() => navigate(`${area}/checkout/${check.id}`, { state: { orderId: check.id, tableId } })}
              >
                <CreditCard className="h-4 w-4" aria-hidden />
                {t.checks.charge}
              </Button>
            </li>
          );
        })}
      </ul>
    </Card>
  );
}
