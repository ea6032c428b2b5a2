import type { ReactNode } from 'react';
import { ArrowRightLeft, ChevronLeft, Combine, MoveRight, UserRound, Users } from 'lucide-react';
import type { Order, Table } from '@comanda/contract';
import { tableLabel } from '@comanda/domain';
import { Button } from '../../components/ui/button.tsx';
import { ConfirmDialog } from '../../components/ui/confirm-dialog.tsx';
import { Dialog } from '../../components/ui/dialog.tsx';
import { PinDialog } from '../../components/pin-dialog.tsx';
import { cn } from '../../components/ui/cn.ts';
import { t } from '../../lib/i18n/es-MX.ts';
import { MoveUnitsStep } from './move-units-step.tsx';
import { useTableActions, type TableActionsState } from './use-table-actions.ts';

const ts = t.tableService;

/**
 * "Acciones de mesa" on both order screens: transfer to a free table, change the waiter (an
 * admin alone, a waiter with an admin PIN), merge into another occupied table (confirmed first),
 * move chosen units to another table. The server enforces every rule; this only offers them.
 */
export function TableActions({ order, base, className }: { order: Order; base: '/waiter' | '/admin'; className?: string }) {
  const a = useTableActions(order, base);
  const { step, close, busy } = a;
  const back = <BackButton onClick={a.backToMenu} disabled={busy} />;

  return (
    <>
      <Button variant="outline" className={className} onClick={a.backToMenu} disabled={order.status !== 'activo'}>
        <ArrowRightLeft className="h-4 w-4" aria-hidden />
        {ts.open}
      </Button>

      <ActionsMenu a={a} />

      <Dialog open={step.kind === 'transfer'} onClose={close} locked={busy} title={ts.chooseFreeTable} variant="sheet" footer={back}>
        <TableGrid tables={a.free} busy={busy} onPick={a.transfer} />
      </Dialog>

      <WaiterStep order={order} a={a} back={back} />

      <Dialog open={step.kind === 'merge'} onClose={close} locked={busy} title={ts.chooseOccupiedTable} variant="sheet" footer={back}>
        <TableGrid tables={a.workable} busy={busy} onPick={a.pickMergeTarget} />
      </Dialog>

      <ConfirmDialog
        open={step.kind === 'merge-confirm'}
        title={ts.mergeConfirmTitle}
        message={step.kind === 'merge-confirm' ? ts.mergeConfirm(tableLabel(order.tableNumber), tableLabel(step.table.number)) : ''}
        confirmLabel={ts.mergeAction}
        busy={busy}
        onClose={close}
        onConfirm={a.confirmMerge}
      />

      <MoveSteps order={order} a={a} />
    </>
  );
}

function ActionsMenu({ a }: { a: TableActionsState }) {
  const { setStep } = a;
  return (
    <Dialog open={a.step.kind === 'menu'} onClose={a.close} title={ts.menuTitle} variant="sheet">
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
          hint={a.isAdmin ? ts.changeWaiterHint : ts.changeWaiterPinHint}
          onClick={() => setStep({ kind: 'waiter' })}
        />
        <MenuEntry icon={<Combine className="h-5 w-5" />} label={ts.merge} hint={ts.mergeHint} onClick={() => setStep({ kind: 'merge' })} />
        <MenuEntry
          icon={<Users className="h-5 w-5" />}
          label={ts.move}
          hint={ts.moveHint}
          disabled={!a.canMove}
          onClick={() => setStep({ kind: 'units' })}
        />
      </div>
    </Dialog>
  );
}

function WaiterStep({ order, a, back }: { order: Order; a: TableActionsState; back: ReactNode }) {
  const { step, busy } = a;
  return (
    <>
      <Dialog open={step.kind === 'waiter'} onClose={a.close} locked={busy} title={ts.chooseWaiter} variant="sheet" footer={back}>
        <div className="grid gap-2">
          {a.waiters.map((w) => {
            const current = w.id === order.waiterId;
            return (
              <Button
                key={w.id}
                variant="outline"
                size="lg"
                className="justify-between"
                disabled={current || busy}
                onClick={() => a.pickWaiter(w.id, w.displayName)}
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
        onClose={a.close}
        onSubmit={a.submitWaiterPin}
      />
    </>
  );
}

function MoveSteps({ order, a }: { order: Order; a: TableActionsState }) {
  const { step, setStep, busy } = a;
  return (
    <>
      <Dialog open={step.kind === 'units'} onClose={a.close} title={ts.move} variant="sheet">
        <MoveUnitsStep
          order={order}
          initial={step.kind === 'units' ? step.lines : undefined}
          onBack={a.backToMenu}
          onNext={(lines) => setStep({ kind: 'move-target', lines })}
        />
      </Dialog>

      <Dialog
        open={step.kind === 'move-target'}
        onClose={a.close}
        locked={busy}
        title={ts.chooseTarget}
        variant="sheet"
        footer={<BackButton onClick={a.backToUnits} disabled={busy} />}
      >
        <TableGrid tables={a.either} busy={busy} onPick={a.moveTo} />
      </Dialog>
    </>
  );
}

function BackButton({ onClick, disabled }: { onClick: () => void; disabled: boolean }) {
  return (
    <Button variant="ghost" size="sm" onClick={onClick} disabled={disabled}>
      <ChevronLeft className="h-4 w-4" aria-hidden />
      {ts.back}
    </Button>
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
