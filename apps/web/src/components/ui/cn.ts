import { clsx, type ClassValue } from 'clsx';
import { twMerge } from 'tailwind-merge';

/**
 * Joins class names (clsx) and resolves Tailwind conflicts (tailwind-merge): when two classes
 * set the same thing (h-10 then h-12, bg-white then bg-slate-900, text-xs then text-sm) the
 * later one wins, so a component's `className` override always beats its defaults.
 */
export function cn(...parts: ClassValue[]): string {
  return twMerge(clsx(parts));
}
