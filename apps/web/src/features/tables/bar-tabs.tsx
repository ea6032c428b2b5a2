import { useEffect, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { toast } from 'sonner';
import { Plus } from 'lucide-react';
import type { Table } from '@comanda/contract';
import { isBarTable, TAB_NAME_MAX } from '@comanda/domain';
import { Button } from '../../components/ui/button.tsx';
import { Card } from '../../components/ui/card.tsx';
import { Dialog } from '../../components/ui/dialog.tsx';
import { Input, Label } from '../../components/ui/input.tsx';
import { errorMessage, post, requireOnline } from '../../lib/api.ts';
import { money } from '../../lib/format.ts';
import { t } from '../../lib/i18n/es-MX.ts';
import { TABLES_KEY, tablesSchemas } from './tables-api.ts';
import { useZodForm } from '../../lib/use-zod-form.ts';
import { CancelButton } from '../../components/ui/cancel-button.tsx';

/** Opens a named tab on the Barra (docs/decisions/0014-checks-are-orders.md), even when it is ocupada. */
function useOpenTab(tableId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async (name: string) => {
      requireOnline(t.checks.openTabError);
      const { OrderResponseSchema } = await tablesSchemas();
      return (await post(OrderResponseSchema, `/api/tables/${tableId}/tabs`, { name })).order;
    },
    onSettled: () => qc.invalidateQueries({ queryKey: TABLES_KEY }),
  });
}

/**
 * The Barra's open tabs (name, waiter, total), each linking to its order screen, and
 * "Nueva cuenta" to open one more. Reads the tables list the page already holds.
 */
export function BarTabs({ tables, area }: { tables: Table[] | undefined; area: '/waiter' | '/admin' }) {
  const bar = tables?.find((x) => isBarTable(x.number));
  const [open, setOpen] = useState(false);
  if (!bar) return null;
  const tabs = [...(bar.order ? [bar.order] : []), ...(bar.extraOrders ?? [])];
  return (
    <Card adds="space-y-3 p-4" data-testid="bar-tabs" aria-label={t.checks.barListTitle} role="group">
      <div className="flex items-center justify-between gap-2">
        <h2 className="text-sm font-semibold tracking-wide text-slate-600 uppercase">
          {t.checks.barListTitle} · {tabs.length}
        </h2>
        <Button variant="accent" size="sm" onClick={() => setOpen(true)} data-testid="new-tab">
          <Plus className="h-4 w-4" aria-hidden />
          {t.checks.newTab}
        </Button>
      </div>
      {tabs.length > 0 && (
        <ul className="divide-y divide-slate-100">
          {tabs.map((tab) => (
            <li key={tab.id}>
              <Link
                to={`${area}/order/${bar.id}?cuenta=${tab.id}`}
                className="flex min-h-11 items-center gap-3 py-2 hover:bg-slate-50"
                data-testid="bar-tab"
              >
                <span className="min-w-0 flex-1">
                  <span className="block truncate font-semibold">{tab.tabName ?? t.checks.unnamed}</span>
                  {tab.waiterName && <span className="block truncate text-xs text-slate-500">{t.checks.byWaiter(tab.waiterName)}</span>}
                </span>
                <span className="font-bold tabular-nums">{money(tab.subtotal)}</span>
              </Link>
            </li>
          ))}
        </ul>
      )}
      <NewTabDialog open={open} onClose={() => setOpen(false)} barId={bar.id} area={area} />
    </Card>
  );
}

function NewTabDialog({ open, onClose, barId, area }: { open: boolean; onClose: () => void; barId: string; area: string }) {
  const openTab = useOpenTab(barId);
  const navigate = useNavigate();
  const form = useZodForm({
    initial: { name: '' },
    schema: async () => (await tablesSchemas()).OpenTabBodySchema,
    toInput: (v) => v,
    // Without the schema (offline) the name goes as typed: the server checks it.
    unchecked: (v) => v,
    onInvalid: (message) => toast.error(message),
    onValid: ({ name }) =>
      openTab.mutate(name, {
        onSuccess: (order) => {
          onClose();
          void navigate(`${area}/order/${barId}?cuenta=${order.id}`);
        },
        onError: (error) => toast.error(errorMessage(error, t.checks.openTabError)),
      }),
  });
  const { reset } = form;
  const name = form.values.name;
  useEffect(() => {
    if (open) reset();
    // eslint-disable-next-line react-hooks/exhaustive-deps -- only a dialog that opens starts over; reset is new each render
  }, [open]);
  return (
    <Dialog
      open={open}
      onClose={onClose}
      title={t.checks.newTabTitle}
      locked={openTab.isPending}
      className="max-w-sm"
      footer={
        <>
          <CancelButton onClick={onClose} disabled={openTab.isPending} />
          <Button variant="accent" onClick={form.submit} disabled={openTab.isPending || name.trim() === ''} data-testid="open-tab">
            {openTab.isPending ? t.checks.openingTab : t.checks.openTab}
          </Button>
        </>
      }
    >
      <form
        className="space-y-2"
        onSubmit={(e) => {
          if (name.trim() !== '') form.onSubmit(e);
          else e.preventDefault();
        }}
      >
        <Label htmlFor="tab-name">{t.checks.tabName}</Label>
        <Input
          id="tab-name"
          value={name}
          maxLength={TAB_NAME_MAX}
          placeholder={t.checks.tabNamePlaceholder}
          autoComplete="off"
          onChange={(e) => form.set('name', e.target.value)}
        />
      </form>
    </Dialog>
  );
}
