import { useEffect, useMemo, useState } from 'react';
import { toast } from 'sonner';
import type { ModifierGroup, Product } from '@comanda/contract';
import { pickerCategories } from '@comanda/domain';
import { errorMessage } from '../../lib/api.ts';
import { t } from '../../lib/i18n/es-MX.ts';
import { useMenuConfig, useSetAvailability, useTopSellers } from '../../lib/menu.ts';
import { useSession } from '../../lib/session.ts';
import { hasOptions } from './has-options.ts';
import { usePickerModifierGroups } from './modifiers-api.ts';
import { useAvailableProducts } from './order-api.ts';
import { filterPickerProducts, topSellerProducts, type RoundEntry } from './picker-model.ts';
import { useRound, type PickAnswer, type PickedProduct } from './use-round.ts';

const NO_GROUPS: ModifierGroup[] = [];

/** An admin's "Agotado" from the picker: the product is marked unavailable. */
function useMarkSoldOut() {
  const setAvailability = useSetAvailability();
  return (p: Product) =>
    setAvailability.mutate(
      { id: p.id, available: false },
      {
        onSuccess: () => toast.success(t.menuPicker.markedSoldOut(p.name), { id: 'picker-sold-out' }),
        onError: (error) => toast.error(errorMessage(error, t.menuPicker.soldOutError), { id: 'picker-sold-out' }),
      },
    );
}

/** The picker's menu queries, its search and category, the product in the quantity step, and this visit's round. */
export function useProductPicker(
  open: boolean,
  onPick: (pick: PickedProduct) => Promise<PickAnswer | null>,
  onUndo: (itemId: string) => Promise<boolean>,
) {
  const products = useAvailableProducts(open);
  const modifierGroups = usePickerModifierGroups(open).data ?? NO_GROUPS;
  const role = useSession().data?.role;
  const menu = useMenuConfig(open);
  const top = useTopSellers(open && (role === 'admin' || role === 'waiter'));
  const markSoldOut = useMarkSoldOut();
  const [search, setSearch] = useState('');
  const [category, setCategory] = useState<string | null>(null);
  const [selected, setSelected] = useState<Product | null>(null);
  const round = useRound(onPick);
  const { flushAll, reset } = round;
  useEffect(() => {
    if (open) {
      setSearch('');
      setCategory(null);
      setSelected(null);
      reset();
    } else flushAll();
  }, [open, flushAll, reset]);

  const all = useMemo(() => products.data ?? [], [products.data]);
  const list = useMemo(() => filterPickerProducts(all, search, category), [all, search, category]);
  const chips = useMemo(
    () =>
      pickerCategories(
        menu.data?.categoryOrder,
        all.map((p) => p.category),
      ),
    [menu.data, all],
  );

  const openStep = (p: Product) => {
    flushAll();
    setSelected(p);
  };
  return {
    products,
    modifierGroups,
    isAdmin: role === 'admin',
    search,
    setSearch,
    category,
    setCategory,
    selected,
    setSelected,
    round,
    /** "Esta ronda" as shown: the lines undone leave it. */
    roundLines: round.entries.filter((e) => e.state !== 'undone'),
    /** Deshacer a sent line: the order screen voids it, and once voided it leaves the round. */
    undo: (e: RoundEntry) => {
      if (e.itemId) void onUndo(e.itemId).then((undone) => undone && round.markUndone(e.key));
    },
    list,
    chips,
    topList: search.trim() === '' && category === null ? topSellerProducts(all, top.data) : [],
    openStep,
    choose: (p: Product) => (hasOptions(p, modifierGroups) ? openStep(p) : round.tap(p)),
    markSoldOut,
    /** The quantity step's pick: back to the list for the next product; the category chip stays, the search starts over. */
    addSelected: async (
      product: Product,
      quantity: number,
      notes: string | null,
      choice: Pick<PickedProduct, 'optionIds' | 'unitPrice' | 'modifierLabels'>,
    ) => {
      if (await round.send({ productId: product.id, productName: product.name, price: product.price, quantity, notes }, choice)) {
        setSelected(null);
        setSearch('');
      }
    },
  };
}

export type ProductPicker = ReturnType<typeof useProductPicker>;
