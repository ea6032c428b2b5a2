import { useState } from 'react';
import { toast } from 'sonner';
import { Pencil, Plus, SlidersHorizontal, Trash2 } from 'lucide-react';
import { groupRangeLabel } from '@comanda/domain';
import type { ModifierGroup, ModifierGroupBody, Product } from '@comanda/contract';
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
import { useModifierGroups, useModifierMutations } from './modifiers-api.ts';
import { GroupDialog } from './group-dialog.tsx';

const M = t.modifiers;

/** The section's queries, mutations and which group is being edited or deleted. */
function useModifiersSection() {
  const groups = useModifierGroups();
  const { save, remove, availability } = useModifierMutations();
  const [editing, setEditing] = useState<ModifierGroup | 'new' | null>(null);
  const [deleting, setDeleting] = useState<ModifierGroup | null>(null);
  const onError = (err: unknown) => toast.error(errorMessage(err, M.saveError));
  return {
    groups,
    editing,
    setEditing,
    deleting,
    setDeleting,
    saving: save.isPending,
    removing: remove.isPending,
    setAvailable: (optionId: string, available: boolean) => availability.mutate({ optionId, available }, { onError }),
    saveGroup: (body: ModifierGroupBody) =>
      editing !== null &&
      save.mutate(
        { id: editing === 'new' ? null : editing.id, body },
        {
          onSuccess: () => {
            toast.success(M.saved);
            setEditing(null);
          },
          onError,
        },
      ),
    removeGroup: () =>
      deleting &&
      remove.mutate(deleting.id, {
        onSuccess: () => {
          toast.success(M.deleted);
          setDeleting(null);
        },
        onError,
      }),
  };
}

/** 'Modificadores' on the Productos page (decision 0026): groups, their options and where they apply. */
export function ModifiersSection({ products }: { products: readonly Product[] }) {
  const s = useModifiersSection();
  const { groups, editing } = s;
  const productName = (id: string) => products.find((p) => p.id === id)?.name ?? '—';

  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div>
          <h1 className="text-2xl font-bold">{M.title}</h1>
          <p className="text-sm text-slate-600">{M.hint}</p>
        </div>
        <Button variant="accent" onClick={() => s.setEditing('new')}>
          <Plus className="h-4 w-4" aria-hidden />
          {M.add}
        </Button>
      </div>
      {groups.isPending ? (
        <Spinner />
      ) : groups.isError ? (
        <ErrorState message={M.loadError} onRetry={() => void groups.refetch()} />
      ) : groups.data.length === 0 ? (
        <EmptyState icon={<SlidersHorizontal className="h-8 w-8" aria-hidden />} title={M.empty} />
      ) : (
        <div className="grid gap-3 lg:grid-cols-2">
          {groups.data.map((g) => (
            <GroupCard key={g.id} group={g} productName={productName} s={s} />
          ))}
        </div>
      )}
      {editing !== null && (
        <GroupDialog
          key={editing === 'new' ? 'new' : editing.id}
          group={editing === 'new' ? null : editing}
          products={products}
          busy={s.saving}
          onClose={() => s.setEditing(null)}
          onSubmit={s.saveGroup}
        />
      )}
      <ConfirmDialog
        open={s.deleting !== null}
        title={M.remove}
        message={M.confirmDelete}
        danger
        busy={s.removing}
        onClose={() => s.setDeleting(null)}
        onConfirm={s.removeGroup}
      />
    </div>
  );
}

function GroupCard({
  group: g,
  productName,
  s,
}: {
  group: ModifierGroup;
  productName: (id: string) => string;
  s: ReturnType<typeof useModifiersSection>;
}) {
  return (
    <Card className="flex flex-col gap-3 p-4" data-testid="modifier-group">
      <div className="flex items-start justify-between gap-3">
        <div className="min-w-0">
          <h2 className="text-lg font-semibold break-words">{g.name}</h2>
          <p className="text-sm text-slate-600">
            {groupRangeLabel(g)}
            {g.minSelect > 0 && (
              <Badge tone="warning" className="ml-2">
                {M.required}
              </Badge>
            )}
          </p>
        </div>
        <div className="flex shrink-0 gap-1">
          <Button variant="outline" size="sm" onClick={() => s.setEditing(g)} aria-label={`${t.products.edit} ${g.name}`}>
            <Pencil className="h-3.5 w-3.5" aria-hidden />
            {t.products.edit}
          </Button>
          <Button variant="ghost" size="sm" onClick={() => s.setDeleting(g)} aria-label={`${M.remove} ${g.name}`}>
            <Trash2 className="h-4 w-4" aria-hidden />
          </Button>
        </div>
      </div>
      <ul className="divide-y divide-slate-100">
        {g.options.map((o) => (
          <li key={o.id} className="flex items-center justify-between gap-3 py-1.5">
            <span className={cn('min-w-0 break-words', !o.available && 'text-slate-500 line-through')}>
              {o.name}
              {o.priceDelta > 0 && <span className="ml-2 text-sm text-slate-600 tabular-nums">{M.delta(money(o.priceDelta))}</span>}
            </span>
            <label className="flex min-h-11 shrink-0 cursor-pointer items-center gap-2 text-sm text-slate-700">
              <input
                type="checkbox"
                role="switch"
                aria-label={M.availabilityOf(o.name)}
                checked={o.available}
                onChange={(e) => s.setAvailable(o.id, e.target.checked)}
                className="h-4 w-4 accent-emerald-600"
              />
              {o.available ? M.available : M.unavailable}
            </label>
          </li>
        ))}
      </ul>
      <p className="text-sm text-slate-700">
        <span className="font-medium">{M.attachedTo}: </span>
        {g.categories.length + g.productIds.length === 0 ? M.noLinks : [...g.categories, ...g.productIds.map(productName)].join(', ')}
      </p>
    </Card>
  );
}
