import { SlidersHorizontal } from 'lucide-react';
import { modifierLabel } from '@comanda/domain';
import { cn } from './ui/cn.ts';
import { t } from '../lib/i18n/es-MX.ts';

interface Chosen {
  groupName: string;
  optionName: string;
}

/**
 * A line's chosen modifier options (decision 0026), as plainly as its notes: 'Michelada · sin
 * cebolla'. `board` is the stations' large print; `compact` the order lists'. Nothing for none.
 */
export function ModifierLines({
  modifiers,
  variant = 'compact',
  struck = false,
  className,
}: {
  modifiers: readonly Chosen[] | undefined;
  variant?: 'board' | 'compact';
  struck?: boolean;
  className?: string;
}) {
  if (!modifiers || modifiers.length === 0) return null;
  const text = modifiers.map(modifierLabel).join(' · ');
  if (variant === 'board') {
    return (
      <span
        className={cn('mt-1 flex items-start gap-1.5 rounded-md bg-sky-50 px-2 py-1 text-base font-bold text-sky-950', className)}
        data-testid="item-modifiers"
      >
        <SlidersHorizontal className="mt-1 h-4 w-4 shrink-0" aria-hidden />
        <span className="sr-only">{t.modifiers.chosen}: </span>
        <span className={cn('min-w-0 break-words', struck && 'line-through')}>{text}</span>
      </span>
    );
  }
  return (
    <p
      className={cn('mt-1 rounded bg-sky-50 px-2 py-0.5 text-sm font-medium break-words text-sky-950', struck && 'line-through', className)}
      data-testid="item-modifiers"
    >
      <span className="sr-only">{t.modifiers.chosen}: </span>
      {text}
    </p>
  );
}
