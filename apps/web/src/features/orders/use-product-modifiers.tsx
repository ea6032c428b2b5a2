import { useMemo, useState } from 'react';
import type { ModifierGroup, Product } from '@comanda/contract';
import { groupsForProduct, modifierLabel, modifierProblemMessage, resolveModifiers } from '@comanda/domain';
import { ModifierChoices } from './modifier-choices.tsx';
import { initialChoice } from './modifier-choice.ts';
import { usePickerModifierGroups } from './modifiers-api.ts';

/**
 * The picker's modifier step for one product (decision 0026): its groups as chips, the unit
 * price with the chosen options for the Agregar button, and `check()` before adding — it marks
 * each required group still unanswered and returns the choice only when the domain rule accepts
 * it (the server checks it again and prices the line itself).
 */
export function useProductModifiers(product: Product) {
  const query = usePickerModifierGroups(true);
  const groups: ModifierGroup[] = useMemo(() => groupsForProduct(query.data ?? [], product), [query.data, product]);
  const [touched, setTouched] = useState<string[] | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [missing, setMissing] = useState<ReadonlySet<string>>(new Set());
  // An option removed or run out since it was tapped drops out of the choice (live update).
  const open = useMemo(() => new Set(groups.flatMap((g) => g.options.filter((o) => o.available).map((o) => o.id))), [groups]);
  const chosen = (touched ?? initialChoice(groups)).filter((id) => open.has(id));
  const resolved = resolveModifiers(groups, chosen, product.price);
  const unitPrice = resolved.ok
    ? resolved.unitPrice
    : product.price + groups.flatMap((g) => g.options).reduce((sum, o) => sum + (chosen.includes(o.id) ? o.priceDelta : 0), 0);

  const shortOf = (ids: readonly string[]) =>
    new Set(groups.filter((g) => g.options.filter((o) => ids.includes(o.id)).length < g.minSelect).map((g) => g.id));

  const element =
    groups.length === 0 ? null : (
      <div className="flex flex-col gap-2">
        <ModifierChoices
          groups={groups}
          chosen={chosen}
          missing={missing}
          onChange={(next) => {
            setTouched(next);
            setProblem(null);
            if (missing.size > 0) setMissing(shortOf(next));
          }}
        />
        <p role="alert" className="min-h-5 text-sm font-medium text-rose-700">
          {problem}
        </p>
      </div>
    );

  return {
    element,
    unitPrice,
    check: () => {
      if (!resolved.ok) {
        setMissing(shortOf(chosen));
        setProblem(modifierProblemMessage(resolved.problem));
        return null;
      }
      return { optionIds: chosen, unitPrice: resolved.unitPrice, modifierLabels: resolved.chosen.map(modifierLabel) };
    },
  };
}
