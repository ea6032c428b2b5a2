/**
 * Modifier groups (decision 0026): 'Término' (exactly 1), 'Preparación' (0–1),
 * 'Extras' (0–3), 'Sin' (any). A group applies to a product when it is attached to the product
 * or to its category. One function checks a waiter's choice against the product's groups and
 * prices the line: the unit price is the product's price plus each chosen option's delta, so
 * every total, share, report and ticket counts the options with no other change.
 */

export interface ModifierOptionRule {
  id: string;
  name: string;
  /** Centavos added to the unit price, ≥ 0. */
  priceDelta: number;
  available: boolean;
}

export interface ModifierGroupRule {
  id: string;
  name: string;
  minSelect: number;
  /** null: no upper limit ('Sin': any of them). */
  maxSelect: number | null;
  options: readonly ModifierOptionRule[];
}

/** What the line keeps of each chosen option, like its name and price: later edits never rewrite it. */
export interface ChosenModifier {
  groupName: string;
  optionName: string;
  priceDelta: number;
}

export type ModifierProblem =
  | { kind: 'unknown' }
  | { kind: 'unavailable'; optionName: string }
  | { kind: 'too-few'; groupName: string; min: number }
  | { kind: 'too-many'; groupName: string; max: number };

export type ModifierResolution = { ok: true; unitPrice: number; chosen: ChosenModifier[] } | { ok: false; problem: ModifierProblem };

export const MAX_MODIFIER_OPTIONS = 20;

/** A group's own limits are sound: 0 ≤ min, min ≤ max when there is a max, max ≥ 1. */
export function isValidGroupRange(minSelect: number, maxSelect: number | null): boolean {
  if (!Number.isInteger(minSelect) || minSelect < 0) return false;
  if (maxSelect === null) return true;
  return Number.isInteger(maxSelect) && maxSelect >= 1 && maxSelect >= minSelect;
}

/** Whether a group must be answered before the line can be added. */
export const isRequiredGroup = (g: Pick<ModifierGroupRule, 'minSelect'>): boolean => g.minSelect > 0;

/** A group of exactly one: choosing another option replaces the first (one tap each). */
export const isSingleChoice = (g: Pick<ModifierGroupRule, 'maxSelect'>): boolean => g.maxSelect === 1;

/** 'Elige 1', 'Elige de 1 a 3', 'Opcional, hasta 3', 'Opcional': what the picker says under a group's name. */
export function groupRangeLabel(g: Pick<ModifierGroupRule, 'minSelect' | 'maxSelect'>): string {
  const { minSelect: min, maxSelect: max } = g;
  if (min === 0) return max === null ? 'Opcional' : max === 1 ? 'Opcional, elige 1' : `Opcional, hasta ${max}`;
  if (max === min) return `Elige ${min}`;
  return max === null ? `Elige al menos ${min}` : `Elige de ${min} a ${max}`;
}

/**
 * Checks the chosen option ids against the product's groups and prices one unit. Refuses an
 * id that belongs to none of the groups (or is repeated), an option marked unavailable, a group
 * with fewer than its minimum or more than its maximum. The chosen options come back in the
 * groups' and options' own order, whatever order the ids were sent in.
 */
export function resolveModifiers(
  groups: readonly ModifierGroupRule[],
  optionIds: readonly string[],
  basePrice: number,
): ModifierResolution {
  const wanted = new Set(optionIds);
  if (wanted.size !== optionIds.length) return { ok: false, problem: { kind: 'unknown' } };
  const chosen: ChosenModifier[] = [];
  let found = 0;
  let unitPrice = basePrice;
  for (const group of groups) {
    let count = 0;
    for (const option of group.options) {
      if (!wanted.has(option.id)) continue;
      if (!option.available) return { ok: false, problem: { kind: 'unavailable', optionName: option.name } };
      count += 1;
      found += 1;
      unitPrice += option.priceDelta;
      chosen.push({ groupName: group.name, optionName: option.name, priceDelta: option.priceDelta });
    }
    if (count < group.minSelect) return { ok: false, problem: { kind: 'too-few', groupName: group.name, min: group.minSelect } };
    if (group.maxSelect !== null && count > group.maxSelect) {
      return { ok: false, problem: { kind: 'too-many', groupName: group.name, max: group.maxSelect } };
    }
  }
  if (found !== wanted.size) return { ok: false, problem: { kind: 'unknown' } };
  return { ok: true, unitPrice, chosen };
}

/** The one sentence a waiter reads for each problem, on the picker and from the server. */
export function modifierProblemMessage(problem: ModifierProblem): string {
  switch (problem.kind) {
    case 'unknown':
      return 'Una de las opciones elegidas ya no existe para este producto; vuelve a elegir';
    case 'unavailable':
      return `La opción «${problem.optionName}» ya no está disponible; elige otra`;
    case 'too-few':
      return problem.min === 1
        ? `Elige una opción de «${problem.groupName}»`
        : `Elige al menos ${problem.min} opciones de «${problem.groupName}»`;
    case 'too-many':
      return problem.max === 1
        ? `Elige solo una opción de «${problem.groupName}»`
        : `Elige como máximo ${problem.max} opciones de «${problem.groupName}»`;
  }
}

/** The groups that apply to a product: attached to it or to its category, in the groups' order. */
export function groupsForProduct<G extends { productIds: readonly string[]; categories: readonly string[] }>(
  groups: readonly G[],
  product: { id: string; category: string },
): G[] {
  return groups.filter((g) => g.productIds.includes(product.id) || g.categories.includes(product.category));
}

/** How one chosen option reads: 'Michelada'; under a group named 'Sin': 'sin cebolla'. */
export function modifierLabel(c: Pick<ChosenModifier, 'optionName' | 'groupName'>): string {
  return c.groupName.trim().toLowerCase() === 'sin' ? `sin ${c.optionName}` : c.optionName;
}

/** 'Michelada, sin cebolla': the chosen options on one line, for tickets and compact lists. */
export function modifiersText(chosen: readonly Pick<ChosenModifier, 'optionName' | 'groupName'>[]): string {
  return chosen.map(modifierLabel).join(', ');
}
