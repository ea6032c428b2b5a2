import { useState } from 'react';
import { useNavigate } from 'react-router';
import { toast } from 'sonner';
import type { Order, Table } from '@comanda/contract';
import { activeItems, tableLabel } from '@comanda/domain';
import { errorMessage } from '../../lib/api.ts';
import { t } from '../../lib/i18n/es-MX.ts';
import { useSession } from '../../lib/session.ts';
import { useServiceTables, useServiceWaiters, useTableServiceActions } from './table-service-api.ts';
import { chosenLines, serviceTargets } from './table-targets.ts';

export type Step =
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

/** The table actions' step, the tables and waiters to offer, and the transfer, waiter change, merge and move. */
export function useTableActions(order: Order, base: '/waiter' | '/admin') {
  const [step, setStep] = useState<Step>({ kind: 'closed' });
  const navigate = useNavigate();
  const me = useSession().data;
  const isAdmin = me?.role === 'admin';
  const tables = useServiceTables(step.kind !== 'closed');
  const waiters = useServiceWaiters(step.kind === 'waiter');
  const actions = useTableServiceActions(order);
  const close = () => setStep({ kind: 'closed' });
  const fail = (error: unknown) => toast.error(errorMessage(error, ts.error));
  /** After a transfer or a merge the order lives on another table: said so, its screen opens. */
  const relocated = (said: (table: string) => string) => ({
    onSuccess: (moved: Order) => {
      toast.success(said(tableLabel(moved.tableNumber)));
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

  return {
    step,
    setStep,
    close,
    backToMenu: () => setStep({ kind: 'menu' }),
    /** From the target tables back to the units, with the units chosen so far. */
    backToUnits: () => setStep({ kind: 'units', lines: step.kind === 'move-target' ? step.lines : undefined }),
    isAdmin,
    canMove: activeItems(order.items).length > 0,
    waiters: waiters.data ?? [],
    ...serviceTargets(tables.data ?? [], order, me),
    busy: actions.transfer.isPending || actions.changeWaiter.isPending || actions.merge.isPending || actions.moveItems.isPending,
    transfer: (table: Table) => actions.transfer.mutate(table.id, relocated(ts.transferred)),
    /** An admin changes the waiter at once; a waiter hands the table over with an admin's PIN. */
    pickWaiter: (waiterId: string, name: string) => {
      if (isAdmin) void changeWaiter(waiterId, name).catch(fail);
      else setStep({ kind: 'waiter-pin', waiterId, name });
    },
    submitWaiterPin: async (pin: string) => {
      if (step.kind === 'waiter-pin') await changeWaiter(step.waiterId, step.name, pin);
    },
    /** A merge is confirmed before it is sent. */
    pickMergeTarget: (table: Table) => setStep({ kind: 'merge-confirm', table }),
    confirmMerge: () => {
      if (step.kind === 'merge-confirm') actions.merge.mutate(step.table.id, relocated(ts.merged));
    },
    /** The chosen units go to the picked table. */
    moveTo: (table: Table) => {
      if (step.kind !== 'move-target') return;
      const chosen = chosenLines(step.lines);
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
    },
  };
}

export type TableActionsState = ReturnType<typeof useTableActions>;
