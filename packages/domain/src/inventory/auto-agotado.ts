/**
 * Agotado by the inventory, for the products the owner opted in: marked when the barra cannot
 * make one more of its recipe, given back when it can again. It never undoes a person: a product
 * someone marked agotado stays so, and one someone made available again while it could not be
 * made is left alone until the stock makes it again.
 */

/** 0 idle, 1 marked agotado by the inventory, 2 made available by a person while short. */
export type AutoAgotadoState = 0 | 1 | 2;

export interface AutoAgotadoStep {
  /** The product's availability to set; null: leave it. */
  available: boolean | null;
  state: AutoAgotadoState;
}

export function autoAgotadoStep(makeable: number, available: boolean, state: AutoAgotadoState): AutoAgotadoStep {
  if (makeable < 1) {
    if (!available) return { available: null, state: state === 2 ? 0 : state };
    if (state === 0) return { available: false, state: 1 };
    // Marked by the inventory and switched back on by someone: theirs until the stock recovers.
    return { available: null, state: 2 };
  }
  if (state === 1 && !available) return { available: true, state: 0 };
  return { available: null, state: 0 };
}
