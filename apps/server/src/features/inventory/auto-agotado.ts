import type { AppContext } from '../../http/context.ts';

/** Products marked agotado by the inventory when the barra cannot make their recipe (placeholder until wired). */
export async function refreshAutoAgotado(_ctx: AppContext): Promise<void> {
  return Promise.resolve();
}
