import type { ButtonHTMLAttributes } from 'react';
import { withClasses } from './cn.ts';

export const BUTTON_CLASSES =
  'inline-flex items-center justify-center gap-2 rounded-lg font-medium transition-colors focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-500 disabled:cursor-not-allowed';

export const BUTTON_VARIANTS = {
  primary: 'bg-slate-900 text-white hover:bg-slate-800 disabled:bg-slate-300 disabled:text-slate-600',
  accent: 'bg-brand-500 text-slate-950 hover:bg-brand-600 disabled:bg-slate-300 disabled:text-slate-500',
  success: 'bg-emerald-700 text-white hover:bg-emerald-800 disabled:bg-slate-300 disabled:text-slate-600',
  danger: 'bg-rose-700 text-white hover:bg-rose-800 disabled:bg-slate-300 disabled:text-slate-600',
  outline: 'border border-slate-300 bg-white text-slate-800 hover:bg-slate-100 disabled:text-slate-400',
  ghost: 'text-slate-700 hover:bg-slate-100 disabled:text-slate-400',
} as const;
// Every size is a finger's target: at least 44×44 CSS px (WCAG 2.5.5) on touch screens; small
// buttons get compact only from 1024 px up, where a pointer is likely (the boards use lg, not sm).
export const BUTTON_SIZES = {
  sm: 'h-11 px-3 text-sm lg:h-9',
  md: 'h-11 px-4 text-sm',
  lg: 'h-12 px-5 text-base',
  icon: 'h-11 w-11',
} as const;

export interface ButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  variant?: keyof typeof BUTTON_VARIANTS;
  size?: keyof typeof BUTTON_SIZES;
}

export function Button({ variant = 'primary', size = 'md', className, type = 'button', ...props }: ButtonProps) {
  return (
    <button
      type={type}
      className={withClasses(`${BUTTON_CLASSES} ${BUTTON_VARIANTS[variant]} ${BUTTON_SIZES[size]}`, undefined, className)}
      {...props}
    />
  );
}
