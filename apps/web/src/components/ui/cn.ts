import { clsx, type ClassValue } from 'clsx';
import { twMerge } from 'tailwind-merge';

/**
 * Joins class names (clsx) and resolves Tailwind conflicts (tailwind-merge): when two classes
 * set the same thing (h-10 then h-12, bg-white then bg-slate-900, text-xs then text-sm) the
 * later one wins, so a component's `className` override always beats its defaults.
 *
 * tailwind-merge builds its class map on its first call (about 0.1 s on a slow phone), so the
 * first screen's components do without it where nothing can clash: see `withClasses`.
 */
export function cn(...parts: ClassValue[]): string {
  return twMerge(clsx(parts));
}

/**
 * A component's classes: its own (`own`, which never clash with each other: cn.test checks every
 * variant), then `adds`, classes the caller adds that set nothing `own` sets (layout, spacing, an
 * accent on one side; cn.test checks every use), joined as they are; then `className`, which may
 * override any of them and goes through tailwind-merge (`cn`). Without a `className` no
 * tailwind-merge runs.
 */
export function withClasses(own: string, adds?: string, className?: string): string {
  const joined = adds ? `${own} ${adds}` : own;
  return className ? cn(joined, className) : joined;
}
