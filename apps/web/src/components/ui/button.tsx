import type { ButtonHTMLAttributes } from 'react';
import { cn } from './cn.ts';

const VARIANTS = {
  primary: 'bg-slate-900 text-white hover:bg-slate-800 disabled:bg-slate-300',
  accent: 'bg-brand-500 text-slate-950 hover:bg-brand-600 disabled:bg-slate-300 disabled:text-slate-500',
  success: 'bg-emerald-600 text-white hover:bg-emerald-700 disabled:bg-slate-300',
  danger: 'bg-rose-600 text-white hover:bg-rose-700 disabled:bg-slate-300',
  outline: 'border border-slate-300 bg-white text-slate-800 hover:bg-slate-100 disabled:text-slate-400',
  ghost: 'text-slate-700 hover:bg-slate-100 disabled:text-slate-400',
} as const;
// Small buttons stay 40 px tall on phones (a finger, not a pointer); compact from 640 px up.
const SIZES = { sm: 'h-10 px-3 text-sm sm:h-8', md: 'h-10 px-4 text-sm', lg: 'h-12 px-5 text-base', icon: 'h-10 w-10' } as const;

export interface ButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  variant?: keyof typeof VARIANTS;
  size?: keyof typeof SIZES;
}

export function Button({ variant = 'primary', size = 'md', className, type = 'button', ...props }: ButtonProps) {
  return (
    <button
      type={type}
      className={cn(
        'inline-flex items-center justify-center gap-2 rounded-lg font-medium transition-colors focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-500 disabled:cursor-not-allowed',
        VARIANTS[variant],
        SIZES[size],
        className,
      )}
      {...props}
    />
  );
}
