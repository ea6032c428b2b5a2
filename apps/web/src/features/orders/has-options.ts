import type { ModifierGroup, Product } from '@comanda/contract';
import { groupsForProduct } from '@comanda/domain';

/**
 * True when choosing the product needs a second step: a modifier group that must be answered
 * (decision 0026). A product with optional groups only ('Sin', 'Preparación' 0–1) is still one
 * tap, plain; its row's "Nota" step offers the options with the note and the quantity.
 */
export function hasOptions(product: Product, groups: readonly ModifierGroup[]): boolean {
  return groupsForProduct(groups, product).some((g) => g.minSelect > 0);
}

/** Whether the product has any modifier group at all (the row says "con opciones"). */
export function offersOptions(product: Product, groups: readonly ModifierGroup[]): boolean {
  return groupsForProduct(groups, product).length > 0;
}
