import { Plus, X } from 'lucide-react';
import { CATEGORIES } from '@comanda/domain';
import type { ModifierGroup, ModifierGroupBody, Product } from '@comanda/contract';
import { Button } from '../../components/ui/button.tsx';
import { CancelButton } from '../../components/ui/cancel-button.tsx';
import { cn } from '../../components/ui/cn.ts';
import { Dialog } from '../../components/ui/dialog.tsx';
import { FormError } from '../../components/ui/form-error.tsx';
import { Input, Label } from '../../components/ui/input.tsx';
import { t } from '../../lib/i18n/es-MX.ts';
import { useGroupForm, type GroupForm } from './use-group-form.ts';

const M = t.modifiers;

/** A group's form: name, how many to choose, its options with their extra price, and where it applies. */
export function GroupDialog({
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
  const g = useGroupForm(group, products, onSubmit);
  const { values, set, error } = g.form;
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
      <form id="modifier-group-form" className="flex flex-col gap-4" noValidate onSubmit={g.form.onSubmit}>
        <div>
          <Label htmlFor="modifier-group-name">{M.name}</Label>
          <Input id="modifier-group-name" value={values.name} maxLength={60} onChange={(e) => set('name', e.target.value)} data-autofocus />
        </div>
        <div className="grid grid-cols-2 gap-3">
          <CountField id="modifier-group-min" label={M.min} value={values.min} onChange={(typed) => g.setCount('min', typed)} />
          <CountField
            id="modifier-group-max"
            label={M.max}
            value={values.max}
            placeholder={M.maxHint}
            onChange={(typed) => g.setCount('max', typed)}
          />
        </div>
        <OptionsFieldset g={g} />
        <CategoriesFieldset g={g} />
        <ProductsFieldset g={g} />
        <FormError message={error} />
      </form>
    </Dialog>
  );
}

/** How many options to choose at least or at most: digits only. */
function CountField(props: { id: string; label: string; value: string; placeholder?: string; onChange: (typed: string) => void }) {
  return (
    <div>
      <Label htmlFor={props.id}>{props.label}</Label>
      <Input
        id={props.id}
        inputMode="numeric"
        value={props.value}
        placeholder={props.placeholder}
        onChange={(e) => props.onChange(e.target.value)}
      />
    </div>
  );
}

function OptionsFieldset({ g }: { g: GroupForm }) {
  const { options } = g.form.values;
  return (
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
              onChange={(e) => g.setOption(o.key, { name: e.target.value })}
            />
          </div>
          <div className="w-36">
            <Label htmlFor={`option-price-${o.key}`}>{M.optionDelta}</Label>
            <Input
              id={`option-price-${o.key}`}
              inputMode="decimal"
              value={o.price}
              placeholder="0.00"
              onChange={(e) => g.setOption(o.key, { price: e.target.value })}
            />
          </div>
          <label className="flex min-h-11 items-center gap-2 text-sm text-slate-700">
            <input
              type="checkbox"
              checked={o.available}
              onChange={(e) => g.setOption(o.key, { available: e.target.checked })}
              className="h-4 w-4 accent-emerald-600"
            />
            {M.available}
          </label>
          <Button
            variant="ghost"
            size="sm"
            aria-label={M.removeOption(o.name)}
            disabled={options.length === 1}
            onClick={() => g.removeOption(o.key)}
          >
            <X className="h-4 w-4" aria-hidden />
          </Button>
        </div>
      ))}
      <Button variant="outline" size="sm" className="self-start" onClick={g.addOption}>
        <Plus className="h-4 w-4" aria-hidden />
        {M.addOption}
      </Button>
    </fieldset>
  );
}

function CategoriesFieldset({ g }: { g: GroupForm }) {
  const { categories } = g.form.values;
  return (
    <fieldset>
      <legend className="mb-1 text-sm font-medium text-slate-700">{M.categories}</legend>
      <div className="flex flex-wrap gap-2">
        {CATEGORIES.map((c) => (
          <button
            key={c}
            type="button"
            aria-pressed={categories.includes(c)}
            onClick={() => g.toggleCategory(c)}
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
  );
}

function ProductsFieldset({ g }: { g: GroupForm }) {
  const { productIds } = g.form.values;
  return (
    <fieldset>
      <legend className="mb-1 text-sm font-medium text-slate-700">{M.products}</legend>
      <div className="grid max-h-56 grid-cols-1 gap-1 overflow-y-auto rounded-lg border border-slate-200 p-2 sm:grid-cols-2">
        {g.sortedProducts.map((p) => (
          <label key={p.id} className="flex min-h-11 cursor-pointer items-center gap-2 text-sm">
            <input
              type="checkbox"
              checked={productIds.includes(p.id)}
              onChange={() => g.toggleProduct(p.id)}
              className="h-4 w-4 accent-slate-900"
            />
            <span className="min-w-0 break-words">{p.name}</span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}
