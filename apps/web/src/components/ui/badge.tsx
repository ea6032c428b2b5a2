import type { HTMLAttributes } from 'react';
import { withClasses } from './cn.ts';

export const BADGE_CLASSES = 'inline-flex items-center rounded-full px-2 py-0.5 text-xs font-semibold';

export const BADGE_TONES = {
  neutral: 'bg-slate-100 text-slate-700',
  success: 'bg-emerald-100 text-emerald-800',
  warning: 'bg-amber-100 text-amber-800',
  danger: 'bg-rose-100 text-rose-800',
  info: 'bg-sky-100 text-sky-800',
  violet: 'bg-violet-100 text-violet-800',
} as const;

export type BadgeTone = keyof typeof BADGE_TONES;

/** `adds`: classes that set nothing the badge sets, joined without tailwind-merge; `className` may override its own. */
export function Badge({
  tone = 'neutral',
  adds,
  className,
  ...props
}: HTMLAttributes<HTMLSpanElement> & { tone?: BadgeTone; adds?: string }) {
  return <span className={withClasses(`${BADGE_CLASSES} ${BADGE_TONES[tone]}`, adds, className)} {...props} />;
}
