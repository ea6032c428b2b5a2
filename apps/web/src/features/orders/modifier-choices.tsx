import type { ModifierGroup } from '@comanda/contract';
import { groupRangeLabel, isRequiredGroup, isSingleChoice } from '@comanda/domain';
import { toggleOption } from './modifier-choice.ts';
import { Badge } from '../../components/ui/badge.tsx';
import { cn } from '../../components/ui/cn.ts';
import { money } from '../../lib/format.ts';
import { t } from '../../lib/i18n/es-MX.ts';

/**
 * The product's modifier groups as rows of chips (decision 0026): each group says how many to
 * choose and whether it is required; an option that ran out shows 'Agotada' and cannot be chosen.
 */
export function ModifierChoices({
  groups,
  chosen,
  onChange,
  missing,
}: {
  groups: readonly ModifierGroup[];
  chosen: readonly string[];
  onChange: (next: string[]) => void;
  /** Groups still short of their minimum, marked once the waiter tried to add. */
  missing: ReadonlySet<string>;
}) {
  if (groups.length === 0) return null;
  return (
    <div className="flex flex-col gap-3" data-testid="modifier-choices">
      {groups.map((group) => {
        const count = group.options.filter((o) => chosen.includes(o.id)).length;
        const full = group.maxSelect !== null && count >= group.maxSelect && !isSingleChoice(group);
        const labelId = `modifier-group-${group.id}`;
        return (
          <fieldset
            key={group.id}
            aria-labelledby={labelId}
            className={cn('rounded-lg border p-3', missing.has(group.id) ? 'border-rose-400 bg-rose-50' : 'border-slate-200')}
          >
            <div className="mb-2 flex flex-wrap items-center gap-2" id={labelId}>
              <span className="font-semibold">{group.name}</span>
              <span className="text-sm text-slate-600">{groupRangeLabel(group)}</span>
              {isRequiredGroup(group) && <Badge tone={missing.has(group.id) ? 'danger' : 'warning'}>{t.modifiers.required}</Badge>}
            </div>
            <div className="flex flex-wrap gap-2">
              {group.options.map((o) => {
                const on = chosen.includes(o.id);
                const disabled = !o.available || (full && !on);
                return (
                  <button
                    key={o.id}
                    type="button"
                    aria-pressed={on}
                    disabled={disabled}
                    onClick={() => onChange(toggleOption(group, chosen, o.id))}
                    className={cn(
                      'min-h-11 rounded-full border px-4 text-sm font-medium focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-500',
                      on ? 'border-slate-900 bg-slate-900 text-white' : 'border-slate-300 bg-white text-slate-800 hover:bg-slate-100',
                      disabled && 'cursor-not-allowed border-dashed bg-slate-50 text-slate-500 hover:bg-slate-50',
                    )}
                  >
                    {o.name}
                    {o.priceDelta > 0 && (
                      <span className={cn('ml-1 tabular-nums', on ? 'text-white' : 'text-slate-600')}>
                        {t.modifiers.delta(money(o.priceDelta))}
                      </span>
                    )}
                    {!o.available && <span className="ml-1 text-xs">· {t.modifiers.unavailable}</span>}
                  </button>
                );
              })}
            </div>
          </fieldset>
        );
      })}
    </div>
  );
}
