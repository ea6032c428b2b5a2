import type { HTMLAttributes } from 'react';
import { withClasses } from './cn.ts';

export const CARD_CLASSES = 'rounded-xl border border-slate-200 bg-white shadow-sm';

/**
 * `adds`: classes that set nothing the card sets (padding, spacing, grid placement, an accent
 * border on one side), joined without tailwind-merge; `className` may override the card's own.
 */
export function Card({ className, adds, ...props }: HTMLAttributes<HTMLDivElement> & { adds?: string }) {
  return <div className={withClasses(CARD_CLASSES, adds, className)} {...props} />;
}
