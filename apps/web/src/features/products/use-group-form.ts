import { centsToPesos, pesosToCents } from '@comanda/domain';
import { ModifierGroupBodySchema, type ModifierGroup, type ModifierGroupBody, type Product } from '@comanda/contract';
import { t } from '../../lib/i18n/es-MX.ts';
import { useZodForm } from '../../lib/use-zod-form.ts';

const M = t.modifiers;

export interface OptionDraft {
  key: string;
  id?: string;
  name: string;
  price: string;
  available: boolean;
}

interface GroupDraft {
  name: string;
  min: string;
  max: string;
  options: OptionDraft[];
  categories: string[];
  productIds: string[];
}

let draftKey = 0;
const newOption = (): OptionDraft => ({ key: `n${++draftKey}`, name: '', price: '', available: true });
const toggleIn = (list: string[], value: string) => (list.includes(value) ? list.filter((v) => v !== value) : [...list, value]);
/** An empty price is no extra; an unreadable one is null. */
const priceOf = (o: OptionDraft) => (o.price.trim() === '' ? 0 : pesosToCents(o.price));

function draftOf(group: ModifierGroup | null): GroupDraft {
  return {
    name: group?.name ?? '',
    min: String(group?.minSelect ?? 0),
    max: group ? (group.maxSelect === null ? '' : String(group.maxSelect)) : '1',
    options: group
      ? group.options.map((o) => ({
          key: o.id,
          id: o.id,
          name: o.name,
          price: o.priceDelta ? centsToPesos(o.priceDelta) : '',
          available: o.available,
        }))
      : [newOption(), newOption()],
    categories: group?.categories ?? [],
    productIds: group?.productIds ?? [],
  };
}

/** A modifier group's form: its fields, its options list, and the checks before it is sent. */
export function useGroupForm(group: ModifierGroup | null, products: readonly Product[], onSubmit: (body: ModifierGroupBody) => void) {
  const form = useZodForm({
    initial: () => draftOf(group),
    schema: ModifierGroupBodySchema,
    before: (d: GroupDraft) => {
      const prices = d.options.map(priceOf);
      if (prices.some((p) => p === null || p < 0)) return M.badPrice;
      if (d.name.trim() === '' || d.options.some((o) => o.name.trim() === '')) return M.nameRequired;
      return null;
    },
    toInput: (d: GroupDraft) => ({
      name: d.name,
      minSelect: Number(d.min || '0'),
      maxSelect: d.max.trim() === '' ? null : Number(d.max),
      options: d.options.map((o) => ({ ...(o.id ? { id: o.id } : {}), name: o.name, priceDelta: priceOf(o), available: o.available })),
      productIds: d.productIds,
      categories: d.categories,
    }),
    onValid: (body: ModifierGroupBody) => onSubmit(body),
  });
  const { update } = form;

  return {
    form,
    /** The least and most to choose keep only the digits typed. */
    setCount: (field: 'min' | 'max', typed: string) => form.set(field, typed.replace(/\D/g, '')),
    sortedProducts: [...products].sort((a, b) => a.name.localeCompare(b.name, 'es')),
    setOption: (key: string, patch: Partial<OptionDraft>) =>
      update((d) => ({ ...d, options: d.options.map((o) => (o.key === key ? { ...o, ...patch } : o)) })),
    addOption: () => update((d) => ({ ...d, options: [...d.options, newOption()] })),
    removeOption: (key: string) => update((d) => ({ ...d, options: d.options.filter((x) => x.key !== key) })),
    toggleCategory: (c: string) => update((d) => ({ ...d, categories: toggleIn(d.categories, c) })),
    toggleProduct: (id: string) => update((d) => ({ ...d, productIds: toggleIn(d.productIds, id) })),
  };
}

export type GroupForm = ReturnType<typeof useGroupForm>;
