import type { ModifierGroup } from '@comanda/contract';
import { isRequiredGroup, isSingleChoice } from '@comanda/domain';

/**
 * The fewest taps for a product's options: a required group with one option left is chosen for
 * the waiter; any other default would be a guess.
 */
export function initialChoice(groups: readonly ModifierGroup[]): string[] {
  return groups.flatMap((g) => {
    const open = g.options.filter((o) => o.available);
    return isRequiredGroup(g) && open.length === 1 && g.minSelect === 1 ? [open[0]!.id] : [];
  });
}

/** One tap on an option: a group of one swaps its choice; others toggle, up to the group's maximum. */
export function toggleOption(group: ModifierGroup, chosen: readonly string[], optionId: string): string[] {
  const inGroup = new Set(group.options.map((o) => o.id));
  if (chosen.includes(optionId)) return chosen.filter((id) => id !== optionId);
  if (isSingleChoice(group)) return [...chosen.filter((id) => !inGroup.has(id)), optionId];
  const count = chosen.filter((id) => inGroup.has(id)).length;
  if (group.maxSelect !== null && count >= group.maxSelect) return [...chosen];
  return [...chosen, optionId];
}
