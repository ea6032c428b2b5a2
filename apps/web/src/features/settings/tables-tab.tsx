import { useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { toast } from 'sonner';
import { Check, Plus, Trash2 } from 'lucide-react';
import { type Table, OkSchema, TableNumberBodySchema, TableResponseSchema, TablesResponseSchema } from '@comanda/contract';
import { tableLabel } from '@comanda/domain';
import { Badge } from '../../components/ui/badge.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Card } from '../../components/ui/card.tsx';
import { ConfirmDialog } from '../../components/ui/confirm-dialog.tsx';
import { EmptyState, ErrorState } from '../../components/ui/empty-state.tsx';
import { Input, Label } from '../../components/ui/input.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { del, errorMessage, get, patch, post } from '../../lib/api.ts';
import { t } from '../../lib/i18n/es-MX.ts';
import { useLiveQueries } from '../../lib/use-live.ts';
import { useZodForm } from '../../lib/use-zod-form.ts';

const KEY = ['tables'] as const;

/** The typed number as the contract reads it: up to three digits, anything else no number. */
const numberInput = ({ number }: { number: string }) => ({ number: /^\d{1,3}$/.test(number.trim()) ? Number(number.trim()) : Number.NaN });
const invalid = (message: string) => toast.error(message);

function useTableAdmin() {
  const qc = useQueryClient();
  useLiveQueries(['tables'], [KEY]);
  const tables = useQuery({ queryKey: KEY, queryFn: async () => (await get(TablesResponseSchema, '/api/tables')).tables });
  const onSettled = () => qc.invalidateQueries({ queryKey: KEY });
  return {
    tables,
    create: useMutation({ mutationFn: (number: number) => post(TableResponseSchema, '/api/tables', { number }), onSettled }),
    renumber: useMutation({
      mutationFn: ({ id, number }: { id: string; number: number }) => patch(TableResponseSchema, `/api/tables/${id}`, { number }),
      onSettled,
    }),
    remove: useMutation({ mutationFn: (id: string) => del(OkSchema, `/api/tables/${id}`), onSettled }),
  };
}

/** Configuración › Mesas: add, renumber and remove tables (one with an active order stays). */
export function TablesTab() {
  const admin = useTableAdmin();
  const [removing, setRemoving] = useState<Table | null>(null);
  const form = useZodForm({
    initial: { number: '' },
    schema: TableNumberBodySchema,
    toInput: numberInput,
    onInvalid: invalid,
    onValid: ({ number: n }) =>
      admin.create.mutate(n, {
        onSuccess: () => {
          toast.success(t.tables.added(tableLabel(n)));
          form.reset();
        },
        onError: (error) => toast.error(errorMessage(error, t.tables.saveError)),
      }),
  });

  return (
    <Card className="space-y-4 p-4">
      <div>
        <h2 className="text-lg font-semibold">{t.tables.manageTitle}</h2>
        <p className="text-sm text-slate-500">{t.tables.manageHint}</p>
      </div>
      <form className="flex items-end gap-2" onSubmit={form.onSubmit}>
        <div className="w-28">
          <Label htmlFor="new-table-number">{t.tables.number}</Label>
          <Input
            id="new-table-number"
            inputMode="numeric"
            value={form.values.number}
            onChange={(e) => form.set('number', e.target.value)}
          />
        </div>
        <Button type="submit" variant="accent" disabled={admin.create.isPending}>
          <Plus className="h-4 w-4" aria-hidden />
          {t.tables.addTable}
        </Button>
      </form>
      {admin.tables.isPending ? (
        <Spinner />
      ) : admin.tables.isError ? (
        <ErrorState message={t.tables.loadError} onRetry={() => void admin.tables.refetch()} />
      ) : admin.tables.data.length === 0 ? (
        <EmptyState title={t.tables.empty} />
      ) : (
        <ul className="divide-y divide-slate-100 rounded-lg border border-slate-200">
          {admin.tables.data.map((table) => (
            <TableRow key={`${table.id}:${table.number}`} table={table} admin={admin} onRemove={() => setRemoving(table)} />
          ))}
        </ul>
      )}
      <ConfirmDialog
        open={removing !== null}
        title={t.tables.confirmRemoveTitle}
        message={removing ? t.tables.confirmRemove(tableLabel(removing.number)) : ''}
        confirmLabel={t.tables.remove}
        danger
        busy={admin.remove.isPending}
        onClose={() => setRemoving(null)}
        onConfirm={() => {
          if (!removing) return;
          admin.remove.mutate(removing.id, {
            onSuccess: () => toast.success(t.tables.removed(tableLabel(removing.number))),
            onError: (error) => toast.error(errorMessage(error, t.tables.saveError)),
            onSettled: () => setRemoving(null),
          });
        }}
      />
    </Card>
  );
}

function TableRow({ table, admin, onRemove }: { table: Table; admin: ReturnType<typeof useTableAdmin>; onRemove: () => void }) {
  const form = useZodForm({
    initial: { number: String(table.number) },
    schema: TableNumberBodySchema,
    toInput: numberInput,
    onInvalid: invalid,
    onValid: ({ number: n }) =>
      admin.renumber.mutate(
        { id: table.id, number: n },
        {
          onSuccess: () => toast.success(t.tables.renumbered),
          onError: (error) => {
            toast.error(errorMessage(error, t.tables.saveError));
            form.reset();
          },
        },
      ),
  });
  const inUse = table.status === 'ocupada';
  const changed = form.values.number.trim() !== String(table.number);
  return (
    <li className="flex items-center gap-3 px-3 py-2" data-testid={`manage-table-${table.number}`}>
      {/* Name and state stacked on a phone, side by side from 640 px: the number form keeps its row. */}
      <div className="flex min-w-0 flex-1 flex-col items-start gap-1 sm:flex-row sm:items-center sm:gap-3">
        <span className="font-medium sm:w-24">{tableLabel(table.number)}</span>
        {inUse ? <Badge tone="warning">{t.tables.occupied}</Badge> : <Badge>{t.tables.free}</Badge>}
      </div>
      <form className="flex shrink-0 items-center gap-2" onSubmit={form.onSubmit}>
        <div className="w-20">
          <Input
            aria-label={`${t.tables.number}: ${tableLabel(table.number)}`}
            inputMode="numeric"
            value={form.values.number}
            onChange={(e) => form.set('number', e.target.value)}
          />
        </div>
        <Button
          type="submit"
          variant="outline"
          size="sm"
          disabled={!changed || admin.renumber.isPending}
          aria-label={`${t.tables.renumber}: ${tableLabel(table.number)}`}
        >
          <Check className="h-4 w-4" aria-hidden />
        </Button>
        <Button
          variant="outline"
          size="sm"
          className="text-rose-700"
          disabled={inUse}
          title={inUse ? t.tables.occupiedNoDelete : undefined}
          onClick={onRemove}
          aria-label={`${t.tables.remove}: ${tableLabel(table.number)}`}
        >
          <Trash2 className="h-4 w-4" aria-hidden />
        </Button>
      </form>
    </li>
  );
}
