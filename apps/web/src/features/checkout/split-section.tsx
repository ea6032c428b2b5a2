import { SPLIT_PRESETS, splitCents, type Cents } from '@comanda/domain';
import { Card } from '../../components/ui/card.tsx';
import { Input, Label } from '../../components/ui/input.tsx';
import { money } from '../../lib/format.ts';
import { t } from '../../lib/i18n/es-MX.ts';
import { choiceButton } from './tip-section.tsx';

interface Props {
  count: number;
  /** What the person typed in the free field; empty while a preset decides. */
  entry: string;
  total: Cents;
  disabled: boolean;
  onPreset: (n: number) => void;
  onEntry: (text: string) => void;
}

/** Split calculator: presets 1–4 or any count; the parts add back to the total exactly. */
export function SplitSection({ count, entry, total, disabled, onPreset, onEntry }: Props) {
  const parts = splitCents(total, count);
  const equal = parts.every((p) => p === parts[0]);
  return (
    <Card className="p-4">
      <div className="mb-3 flex items-baseline justify-between">
        <h2 className="font-semibold">{t.checkout.splitTitle}</h2>
        <span className="text-sm text-slate-600">{t.checkout.people(count)}</span>
      </div>
      <p className="-mt-2 mb-3 text-xs text-slate-600">{t.checkout.splitHint}</p>
      <div className="grid grid-cols-4 gap-2" role="group" aria-label={t.checkout.splitTitle}>
        {SPLIT_PRESETS.map((n) => (
          <button
            key={n}
            type="button"
            disabled={disabled}
            aria-pressed={entry === '' && count === n}
            className={choiceButton(entry === '' && count === n)}
            onClick={() => onPreset(n)}
          >
            {n}
          </button>
        ))}
      </div>
      <Label htmlFor="split-count" className="mt-3">
        {t.checkout.splitCustom}
      </Label>
      <Input
        id="split-count"
        type="number"
        inputMode="numeric"
        min={1}
        step={1}
        disabled={disabled}
        value={entry}
        placeholder={String(count)}
        onChange={(e) => onEntry(e.target.value)}
      />
      <div className="mt-3 rounded-lg bg-slate-50 p-3" data-testid="split-result">
        <p className="text-sm text-slate-600">{t.checkout.splitEach}</p>
        {equal ? (
          <p className="text-2xl font-bold tabular-nums">{money(parts[0] ?? 0)}</p>
        ) : (
          <ul className="mt-1 grid max-h-40 grid-cols-2 gap-x-4 gap-y-1 overflow-y-auto text-sm">
            {parts.map((part, i) => (
              <li key={i} className="flex justify-between tabular-nums">
                <span className="text-slate-600">{t.checkout.splitPart(i + 1)}</span>
                <span className="font-semibold">{money(part)}</span>
              </li>
            ))}
          </ul>
        )}
      </div>
    </Card>
  );
}
