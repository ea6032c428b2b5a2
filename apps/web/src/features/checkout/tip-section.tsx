import { TIP_PRESETS_BPS } from '@comanda/domain';
import { Card } from '../../components/ui/card.tsx';
import { Input, Label } from '../../components/ui/input.tsx';
import { cn } from '../../components/ui/cn.ts';
import { money } from '../../lib/format.ts';
import { t } from '../../lib/i18n/es-MX.ts';

export interface TipChoice {
  /** The preset chosen, or null when the custom field (or nothing) decides. */
  preset: number | null;
  custom: string;
}

interface Props {
  choice: TipChoice;
  tip: number;
  disabled: boolean;
  onChange: (choice: TipChoice) => void;
}

export const choiceButton = (selected: boolean) =>
  cn(
    'h-11 rounded-lg border text-sm font-semibold transition-colors disabled:cursor-not-allowed disabled:opacity-50',
    selected ? 'border-brand-500 bg-brand-500 text-slate-950' : 'border-slate-300 bg-white text-slate-800 hover:bg-slate-100',
  );

/** 10/15/20 % or a custom rate; picking a preset clears the custom field (SPEC §5). */
export function TipSection({ choice, tip, disabled, onChange }: Props) {
  const none = choice.preset === null && choice.custom === '';
  return (
    <Card className="p-4">
      <div className="mb-2 flex items-baseline justify-between">
        <h2 className="font-semibold">{t.checkout.tipTitle}</h2>
        <span className="text-sm tabular-nums text-slate-600" data-testid="tip-amount">
          {money(tip)}
        </span>
      </div>
      <div className="grid grid-cols-4 gap-2" role="group" aria-label={t.checkout.tipTitle}>
        <button
          type="button"
          disabled={disabled}
          aria-label={t.checkout.noTip}
          aria-pressed={none}
          className={choiceButton(none)}
          onClick={() => onChange({ preset: null, custom: '' })}
        >
          <span className="sm:hidden">0%</span>
          <span className="hidden sm:inline">{t.checkout.noTip}</span>
        </button>
        {TIP_PRESETS_BPS.map((bps) => (
          <button
            key={bps}
            type="button"
            disabled={disabled}
            aria-pressed={choice.preset === bps}
            className={choiceButton(choice.preset === bps)}
            onClick={() => onChange({ preset: bps, custom: '' })}
          >
            {bps / 100}%
          </button>
        ))}
      </div>
      <div className="mt-2 flex items-center gap-3">
        <Label htmlFor="custom-tip" className="mb-0 shrink-0">
          {t.checkout.customTip}
        </Label>
        <Input
          id="custom-tip"
          inputMode="decimal"
          disabled={disabled}
          placeholder={t.checkout.customTipPlaceholder}
          value={choice.custom}
          onChange={(e) => onChange({ preset: null, custom: e.target.value })}
        />
      </div>
    </Card>
  );
}
