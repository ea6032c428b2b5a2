import { useState, type ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { toast } from 'sonner';
import { ArrowRightLeft, ChevronLeft, Combine, MoveRight, UserRound, Users } from 'lucide-react';
import type { Order, Table } from '@comanda/contract';
import { activeItems, tableLabel } from '@comanda/domain';
import { Button } from '../../components/ui/button.tsx';
import { ConfirmDialog } from '../../components/ui/confirm-dialog.tsx';
import { Dialog } from '../../components/ui/dialog.tsx';
import { PinDialog } from '../../components/pin-dialog.tsx';
import { cn } from '../../components/ui/cn.ts';
import { errorMessage } from '../../lib/api.ts';
import { t } from '../../lib/i18n/es-MX.ts';
import { useSession } from '../../lib/session.ts';
import { useServiceTables, useServiceWaiters, useTableServiceActions } from './table-service-api.ts';
import { MoveUnitsStep } from './move-units-step.tsx';
import { chosenLines, serviceTargets } from './table-targets.ts';

type Step =
  | { kind: 'closed' }
  | { kind: 'menu' }
  | { kind: 'transfer' }
  | { kind: 'waiter' }
  | { kind: 'waiter-pin'; waiterId: string; name: string }
  | { kind: 'merge' }
  | { kind: 'merge-confirm'; table: Table }
  | { kind: 'units'; lines?: Record<string, number> }
  | { kind: 'move-target'; lines: Record<string, number> };

const ts = t.tableService;

/**
 * "Acciones de mesa" on both order screens: transfer to a free table, change the waiter (an
 * admin alone, a waiter with an admin PIN), merge into another occupied table (confirmed first),
 * move chosen units to another table. The server enforces every rule; this only offers them.
 */
export function TableActions({ order, base, className }: { order: Order; base: '/waiter' | '/admin'; className?: string }) {
  const [step, setStep] = useState<Step>({ kind: 'closed' });
  const navigate = useNavigate();
  const session = useSession();
  const me = session.data;
  const isAdmin = me?.role === 'admin';
  const open = step.kind !== 'closed';
  const tables = useServiceTables(open);
  const waiters = useServiceWaiters(step.kind === 'waiter');
  const actions = useTableServiceActions(order);
  const close = () => setStep({ kind: 'closed' });
  const busy = actions.transfer.isPending || actions.changeWaiter.isPending || actions.merge.isPending || actions.moveItems.isPending;
  const fail = (error: unknown) => toast.error(errorMessage(error, ts.error));
  const { free, workable, either } = serviceTargets(tables.data ?? [], order, me);

  const transfer = (table: Table) =>
    actions.transfer.mutate(table.id, {
      onSuccess: (moved) => {
        toast.success(ts.transferred(tableLabel(moved.tableNumber)));
        close();
        navigate(`${base}/order/${moved.tableId}`, { replace: true });
      },
      onError: fail,
    });
  const changeWaiter = async (waiterId: string, name: string, pin?: string) => {
    await actions.changeWaiter.mutateAsync({ waiterId, ...(pin ? { pin } : {}) });
    toast.success(ts.waiterChanged(name));
    close();
    // A waiter who handed their table over can no longer work it.
    if (!isAdmin) navigate(`${base}/home`, { replace: true });
  };
  const merge = (table: Table) =>
    actions.merge.mutate(table.id, {
      onSuccess: (merged) => {
        toast.success(ts.merged(tableLabel(merged.tableNumber)));
        close();
        navigate(`${base}/order/${merged.tableId}`, { replace: true });
      },
      onError: fail,
    });
  const move = (table: Table, lines: Record<string, number>) => {
    const chosen = chosenLines(lines);
    const units = chosen.reduce((acc, l) => acc + l.quantity, 0);
    actions.moveItems.mutate(
      { targetTableId: table.id, lines: chosen },
      {
        onSuccess: () => {
          toast.success(ts.moved(units, tableLabel(table.number)));
          close();
        },
        onError: fail,
      },
    );
  };

  const back = (
    <Button variant="ghost" size="sm" onClick={() => setStep({ kind: 'menu' })} disabled={busy}>
      <ChevronLeft className="h-4 w-4" aria-hidden />
      {ts.back}
    </Button>
  );

  return (
    <>
      <Button variant="outline" className={className} onClick={() => setStep({ kind: 'menu' })} disabled={order.status !== 'activo'}>
        <ArrowRightLeft className="h-4 w-4" aria-hidden />
        {ts.open}
      </Button>

      <Dialog open={step.kind === 'menu'} onClose={close} title={ts.menuTitle} variant="sheet">
        <div className="grid gap-2">
          <MenuEntry
            icon={<MoveRight className="h-5 w-5" />}
            label={ts.transfer}
            hint={ts.transferHint}
            onClick={() => setStep({ kind: 'transfer' })}
          />
          <MenuEntry
            icon={<UserRound className="h-5 w-5" />}
            label={ts.changeWaiter}
            hint={isAdmin ? ts.changeWaiterHint : ts.changeWaiterPinHint}
            onClick={() => setStep({ kind: 'waiter' })}
          />
          <MenuEntry
            icon={<Combine className="h-5 w-5" />}
            label={ts.merge}
            hint={ts.mergeHint}
            onClick={() => setStep({ kind: 'merge' })}
          />
          <MenuEntry
            icon={<Users className="h-5 w-5" />}
            label={ts.move}
            hint={ts.moveHint}
            disabled={activeItems(order.items).length === 0}
            onClick={() => setStep({ kind: 'units' })}
          />
        </div>
      </Dialog>

      <Dialog open={step.kind === 'transfer'} onClose={close} locked={busy} title={ts.chooseFreeTable} variant="sheet" footer={back}>
        <TableGrid tables={free} busy={busy} onPick={transfer} />
      </Dialog>

      <Dialog open={step.kind === 'waiter'} onClose={close} locked={busy} title={ts.chooseWaiter} variant="sheet" footer={back}>
        <div className="grid gap-2">
          {(waiters.data ?? []).map((w) => {
            const current = w.id === order.waiterId;
            return (
              <Button
                key={w.id}
                variant="outline"
                size="lg"
                className="justify-between"
                disabled={current || busy}
                onClick={() => {
                  if (isAdmin) void changeWaiter(w.id, w.displayName).catch(fail);
                  else setStep({ kind: 'waiter-pin', waiterId: w.id, name: w.displayName });
                }}
              >
                <span>{w.displayName}</span>
                {current && <span className="text-xs text-slate-500">{ts.currentWaiter}</span>}
              </Button>
            );
          })}
        </div>
      </Dialog>

      <PinDialog
        open={step.kind === 'waiter-pin'}
        title={ts.pinTitle}
        description={step.kind === 'waiter-pin' ? ts.pinDescription(step.name) : undefined}
        onClose={close}
        onSubmit={async (pin) => {
          if (step.kind === 'waiter-pin') await changeWaiter(step.waiterId, step.name, pin);
        }}
      />

      <Dialog open={step.kind === 'merge'} onClose={close} locked={busy} title={ts.chooseOccupiedTable} variant="sheet" footer={back}>
        <TableGrid tables={workable} busy={busy} onPick={(table) => setStep({ kind: 'merge-confirm', table })} />
      </Dialog>

      <ConfirmDialog
        open={step.kind === 'merge-confirm'}
        title={ts.mergeConfirmTitle}
        message={step.kind === 'merge-confirm' ? ts.mergeConfirm(tableLabel(order.tableNumber), tableLabel(step.table.number)) : ''}
        confirmLabel={ts.mergeAction}
        busy={busy}
        onClose={close}
        onConfirm={() => step.kind === 'merge-confirm' && merge(step.table)}
      />

      <Dialog open={step.kind === 'units'} onClose={close} title={ts.move} variant="sheet">
        <MoveUnitsStep
          order={order}
          initial={step.kind === 'units' ? step.lines : undefined}
          onBack={() => setStep({ kind: 'menu' })}
          onNext={(lines) => setStep({ kind: 'move-target', lines })}
        />
      </Dialog>

      <Dialog
        open={step.kind === 'move-target'}
        onClose={close}
        locked={busy}
        title={ts.chooseTarget}
        variant="sheet"
        footer={
          <Button
            variant="ghost"
            size="sm"
            onClick={() => setStep({ kind: 'units', lines: step.kind === 'move-target' ? step.lines : undefined })}
            disabled={busy}
          >
            <ChevronLeft className="h-4 w-4" aria-hidden />
            {ts.back}
          </Button>
        }
      >
        <TableGrid tables={either} busy={busy} onPick={(table) => step.kind === 'move-target' && move(table, step.lines)} />
      </Dialog>
    </>
  );
}

function MenuEntry({
  icon,
  label,
  hint,
  disabled,
  onClick,
}: {
  icon: ReactNode;
  label: string;
  hint: string;
  disabled?: boolean;
  onClick: () => void;
}) {
  return (
    <button
      type="button"
      disabled={disabled}
      onClick={onClick}
      className="flex min-h-14 items-center gap-3 rounded-xl border border-slate-200 px-4 py-3 text-left hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-brand-500 disabled:opacity-50"
    >
      <span className="text-slate-600" aria-hidden>
        {icon}
      </span>
      <span className="min-w-0">
        <span className="block font-medium">{label}</span>
        <span className="block text-sm text-slate-500">{hint}</span>
      </span>
    </button>
  );
}

/** Tables as big buttons: the label, free or occupied (and by whom). */
function TableGrid({ tables, busy, onPick }: { tables: Table[]; busy: boolean; onPick: (table: Table) => void }) {
  if (tables.length === 0) return <p className="py-6 text-center text-slate-500">{ts.noTables}</p>;
  return (
    <div className="grid grid-cols-3 gap-2 sm:grid-cols-4">
      {tables.map((tb) => (
        <button
          key={tb.id}
          type="button"
          disabled={busy}
          onClick={() => onPick(tb)}
          data-testid={`target-table-${tb.number}`}
          className={cn(
            'flex min-h-16 flex-col items-center justify-center rounded-xl border px-2 py-2 text-center focus-visible:outline-2 focus-visible:outline-brand-500 disabled:opacity-50',
            tb.status === 'libre'
              ? 'border-emerald-300 bg-emerald-50 hover:bg-emerald-100'
              : 'border-amber-300 bg-amber-50 hover:bg-amber-100',
          )}
        >
          <span className="font-semibold">{tableLabel(tb.number)}</span>
          <span className="text-xs text-slate-600">{tb.status === 'libre' ? ts.free : (tb.waiterName ?? ts.occupied)}</span>
        </button>
      ))}
    </div>
  );
}
