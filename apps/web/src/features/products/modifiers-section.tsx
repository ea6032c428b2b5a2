import { useState } from 'react';
import { toast } from 'sonner';
import { Pencil, Plus, SlidersHorizontal, Trash2, X } from 'lucide-react';
import { CATEGORIES, centsToPesos, groupRangeLabel, pesosToCents } from '@comanda/domain';
import { ModifierGroupBodySchema, type ModifierGroup, type ModifierGroupBody, type Product } from '@comanda/contract';
import { Badge } from '../../components/ui/badge.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Card } from '../../components/ui/card.tsx';
import { cn } from '../../components/ui/cn.ts';
import { ConfirmDialog } from '../../components/ui/confirm-dialog.tsx';
import { Dialog } from '../../components/ui/dialog.tsx';
import { EmptyState, ErrorState } from '../../components/ui/empty-state.tsx';
import { FormError } from '../../components/ui/form-error.tsx';
import { Input, Label } from '../../components/ui/input.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { errorMessage } from '../../lib/api.ts';
import { money } from '../../lib/format.ts';
import { t } from '../../lib/i18n/es-MX.ts';
import { useModifierGroups, useModifierMutations } from './modifiers-api.ts';
import { CancelButton } from '../../components/ui/cancel-button.tsx';

const M = t.modifiers;

/** 'Modificadores' on the Productos page (decision 0026): groups, their options and where they apply. */
export function ModifiersSection({ products }: { products: readonly Product[] }) {
  const groups = useModifierGroups();
  const { save, remove, availability } = useModifierMutations();
  const [editing, setEditing] = useState<ModifierGroup | 'new' | null>(null);
  const [deleting, setDeleting] = useState<ModifierGroup | null>(null);
  const productName = (id: string) => products.find((p) => p.id === id)?.name ?? '—';

  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div>
          <h1 className="text-2xl font-bold">{M.title}</h1>
          <p className="text-sm text-slate-600">{M.hint}</p>
        </div>
        <Button variant="accent" onClick={() => setEditing('new')}>
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
            <Card key={g.id} className="flex flex-col gap-3 p-4" data-testid="modifier-group">
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
                  <Button variant="outline" size="sm" onClick={() => setEditing(g)} aria-label={`${t.products.edit} ${g.name}`}>
                    <Pencil className="h-3.5 w-3.5" aria-hidden />
                    {t.products.edit}
                  </Button>
                  <Button variant="ghost" size="sm" onClick={() => setDeleting(g)} aria-label={`${M.remove} ${g.name}`}>
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
                        onChange={(e) =>
                          availability.mutate(
                            { optionId: o.id, available: e.target.checked },
                            { onError: (err) => toast.error(errorMessage(err, M.saveError)) },
                          )
                        }
                        className="h-4 w-4 accent-emerald-600"
                      />
                      {o.available ? M.available : M.unavailable}
                    </label>
                  </li>
                ))}
              </ul>
              <p className="text-sm text-slate-700">
                <span className="font-medium">{M.attachedTo}: </span>
                {g.categories.length + g.productIds.length === 0
                  ? M.noLinks
                  : [...g.categories, ...g.productIds.map(productName)].join(', ')}
              </p>
            </Card>
          ))}
        </div>
      )}
      {editing !== null && (
        <GroupDialog
          key={editing === 'new' ? 'new' : editing.id}
          group={editing === 'new' ? null : editing}
          products={products}
          busy={save.isPending}
          onClose={() => setEditing(null)}
          onSubmit={(body) =>
            save.mutate(
              { id: editing === 'new' ? null : editing.id, body },
              {
                onSuccess: () => {
                  toast.success(M.saved);
                  setEditing(null);
                },
                onError: (err) => toast.error(errorMessage(err, M.saveError)),
              },
            )
          }
        />
      )}
      <ConfirmDialog
        open={deleting !== null}
        title={M.remove}
        message={M.confirmDelete}
        danger
        busy={remove.isPending}
        onClose={() => setDeleting(null)}
        onConfirm={() =>
          deleting &&
          remove.mutate(deleting.id, {
            onSuccess: () => {
              toast.success(M.deleted);
              setDeleting(null);
            },
            onError: (err) => toast.error(errorMessage(err, M.saveError)),
          })
        }
      />
    </div>
  );
}

interface OptionDraft {
  key: string;
  id?: string;
  name: string;
  price: string;
  available: boolean;
}

let draftKey = 0;
const newOption = (): OptionDraft => ({ key: `n${++draftKey}`, name: '', price: '', available: true });

/** A group's form: name, how many to choose, its options with their extra price, and where it applies. */
function GroupDialog({
  group,
  products,
  busy,
  onClose,
  onSubmit,
}: {
  group: ModifierGroup | null;
  products: readonly Product[];
  busy: boolean;
  onClose: () => void;
  onSubmit: (body: ModifierGroupBody) => void;
}) {
  const [name, setName] = useState(group?.name ?? '');
  const [min, setMin] = useState(String(group?.minSelect ?? 0));
  const [max, setMax] = useState(group ? (group.maxSelect === null ? '' : String(group.maxSelect)) : '1');
  const [options, setOptions] = useState<OptionDraft[]>(
    group
      ? group.options.map((o) => ({
          key: o.id,
          id: o.id,
          name: o.name,
          price: o.priceDelta ? centsToPesos(o.priceDelta) : '',
          available: o.available,
        }))
      : [newOption(), newOption()],
  );
  const [categories, setCategories] = useState<string[]>(group?.categories ?? []);
  const [productIds, setProductIds] = useState<string[]>(group?.productIds ?? []);
  const [error, setError] = useState<string | null>(null);

  const toggleIn = (list: string[], value: string) => (list.includes(value) ? list.filter((v) => v !== value) : [...list, value]);
  const setOption = (key: string, patch: Partial<OptionDraft>) =>
    setOptions((list) => list.map((o) => (o.key === key ? { ...o, ...patch } : o)));

  const submit = () => {
    const prices = options.map((o) => (o.price.trim() === '' ? 0 : pesosToCents(o.price)));
    if (prices.some((p) => p === null || p < 0)) {
      setError(M.badPrice);
      return;
    }
    if (name.trim() === '' || options.some((o) => o.name.trim() === '')) {
      setError(M.nameRequired);
      return;
    }
    const parsed = ModifierGroupBodySchema.safeParse({
      name,
      minSelect: Number(min || '0'),
      maxSelect: max.trim() === '' ? null : Number(max),
      options: options.map((o, i) => ({ ...(o.id ? { id: o.id } : {}), name: o.name, priceDelta: prices[i], available: o.available })),
      productIds,
      categories,
    });
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message ?? M.badRange);
      return;
    }
    setError(null);
    onSubmit(parsed.data);
  };

  const sortedProducts = [...products].sort((a, b) => a.name.localeCompare(b.name, 'es'));
  return (
    <Dialog
      open
      onClose={onClose}
      locked={busy}
      title={group ? M.editTitle : M.newTitle}
      variant="sheet"
      className="sm:max-w-2xl"
      footer={
        <>
          <CancelButton onClick={onClose} disabled={busy} />
          <Button type="submit" form="modifier-group-form" variant="accent" disabled={busy}>
            {busy ? t.products.saving : t.app.save}
          </Button>
        </>
      }
    >
      <form
        id="modifier-group-form"
        className="flex flex-col gap-4"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          submit();
        }}
      >
        <div>
          <Label htmlFor="modifier-group-name">{M.name}</Label>
          <Input id="modifier-group-name" value={name} maxLength={60} onChange={(e) => setName(e.target.value)} data-autofocus />
        </div>
        <div className="grid grid-cols-2 gap-3">
          <div>
            <Label htmlFor="modifier-group-min">{M.min}</Label>
            <Input id="modifier-group-min" inputMode="numeric" value={min} onChange={(e) => setMin(e.target.value.replace(/\D/g, ''))} />
          </div>
          <div>
            <Label htmlFor="modifier-group-max">{M.max}</Label>
            <Input
              id="modifier-group-max"
              inputMode="numeric"
              value={max}
              placeholder={M.maxHint}
              onChange={(e) => setMax(e.target.value.replace(/\D/g, ''))}
            />
          </div>
        </div>
        <fieldset className="flex flex-col gap-2">
          <legend className="mb-1 text-sm font-medium text-slate-700">{M.options}</legend>
          {options.map((o, i) => (
            <div key={o.key} className="flex flex-wrap items-end gap-2 rounded-lg border border-slate-200 p-2">
              <div className="min-w-40 flex-1">
                <Label htmlFor={`option-name-${o.key}`}>{`${M.optionName} ${i + 1}`}</Label>
                <Input
                  id={`option-name-${o.key}`}
                  value={o.name}
                  maxLength={60}
                  onChange={(e) => setOption(o.key, { name: e.target.value })}
                />
              </div>
              <div className="w-36">
                <Label htmlFor={`option-price-${o.key}`}>{M.optionDelta}</Label>
                <Input
                  id={`option-price-${o.key}`}
                  inputMode="decimal"
                  value={o.price}
                  placeholder="0.00"
                  onChange={(e) => setOption(o.key, { price: e.target.value })}
                />
              </div>
              <label className="flex min-h-11 items-center gap-2 text-sm text-slate-700">
                <input
                  type="checkbox"
                  checked={o.available}
                  onChange={(e) => setOption(o.key, { available: e.target.checked })}
                  className="h-4 w-4 accent-emerald-600"
                />
                {M.available}
              </label>
              <Button
                variant="ghost"
                size="sm"
                aria-label={M.removeOption(o.name)}
                disabled={options.length === 1}
                onClick={() => setOptions((list) => list.filter((x) => x.key !== o.key))}
              >
                <X className="h-4 w-4" aria-hidden />
              </Button>
            </div>
          ))}
          <Button variant="outline" size="sm" className="self-start" onClick={() => setOptions((list) => [...list, newOption()])}>
            <Plus className="h-4 w-4" aria-hidden />
            {M.addOption}
          </Button>
        </fieldset>
        <fieldset>
          <legend className="mb-1 text-sm font-medium text-slate-700">{M.categories}</legend>
          <div className="flex flex-wrap gap-2">
            {CATEGORIES.map((c) => (
              <button
                key={c}
                type="button"
                aria-pressed={categories.includes(c)}
                onClick={() => setCategories((list) => toggleIn(list, c))}
                className={cn(
                  'min-h-11 rounded-full border px-3 text-sm font-medium focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-500',
                  categories.includes(c)
                    ? 'border-slate-900 bg-slate-900 text-white'
                    : 'border-slate-300 bg-white text-slate-700 hover:bg-slate-100',
                )}
              >
                {c}
              </button>
            ))}
          </div>
        </fieldset>
        <fieldset>
          <legend className="mb-1 text-sm font-medium text-slate-700">{M.products}</legend>
          <div className="grid max-h-56 grid-cols-1 gap-1 overflow-y-auto rounded-lg border border-slate-200 p-2 sm:grid-cols-2">
            {sortedProducts.map((p) => (
              <label key={p.id} className="flex min-h-11 cursor-pointer items-center gap-2 text-sm">
                <input
                  type="checkbox"
                  checked={productIds.includes(p.id)}
                  onChange={() => setProductIds((list) => toggleIn(list, p.id))}
                  className="h-4 w-4 accent-slate-900"
                />
                <span className="min-w-0 break-words">{p.name}</span>
              </label>
            ))}
          </div>
        </fieldset>
        <FormError message={error} />
      </form>
    </Dialog>
  );
}
