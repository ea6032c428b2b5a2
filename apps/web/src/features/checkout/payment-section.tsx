import { ArrowLeftRight, Banknote, CreditCard } from 'lucide-react';
import { CASH_HINT, PAYMENT_METHODS, cashShortfall, changeDue, type Cents, type PaymentMethod } from '@comanda/domain';
import { Card } from '../../components/ui/card.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Input, Label } from '../../components/ui/input.tsx';
import { cn } from '../../components/ui/cn.ts';
import { money } from '../../lib/format.ts';
import { t } from '../../lib/i18n/es-MX.ts';
import { choiceButton } from './tip-section.tsx';

const ICONS = { efectivo: Banknote, tarjeta: CreditCard, transferencia: ArrowLeftRight } as const;

interface Props {
  method: PaymentMethod;
  received: string;
  /** The received field read as centavos, or null while empty or unreadable. */
  receivedCents: Cents | null;
  total: Cents;
  disabled: boolean;
  onMethod: (m: PaymentMethod) => void;
  onReceived: (text: string) => void;
  onExact: () => void;
  /** A quick-cash amount in centavos. */
  onAmount: (cents: number) => void;
}

/** Method choice and, for cash, what was handed over and the change to give back. */
/**
 * Quick-cash amounts for a total: the next round 50 and 100 above it and the common notes
 * ($200, $500, $1,000) that cover it, without repeats, at most four, smallest first.
 */
export function quickCashAmounts(total: number): number[] {
  const roundUp = (step: number) => Math.ceil(total / step) * step;
  const candidates = [roundUp(5_000), roundUp(10_000), 20_000, 50_000, 100_000].filter((c) => c > total);
  return [...new Set(candidates)].sort((a, b) => a - b).slice(0, 4);
}

/** Efectivo, Tarjeta, Transferencia as three large toggles: the checkout's and a partial payment's. */
export function MethodChoice(props: {
  label: string;
  method: PaymentMethod;
  onMethod: (m: PaymentMethod) => void;
  disabled?: boolean | undefined;
  className: string;
}) {
  return (
    <div className="grid grid-cols-3 gap-2" role="group" aria-label={props.label}>
      {PAYMENT_METHODS.map((m) => {
        const Icon = ICONS[m];
        return (
          <button
            key={m}
            type="button"
            disabled={props.disabled}
            aria-pressed={props.method === m}
            className={cn(
              choiceButton(props.method === m),
              'flex flex-col items-center justify-center gap-1 text-xs sm:text-sm',
              props.className,
            )}
            onClick={() => props.onMethod(m)}
          >
            <Icon className="h-5 w-5" aria-hidden />
            {t.checkout.methods[m]}
          </button>
        );
      })}
    </div>
  );
}

export function PaymentSection({ method, received, receivedCents, total, disabled, onMethod, onReceived, onExact, onAmount }: Props) {
  const short = receivedCents === null ? 0 : cashShortfall(receivedCents, total);
  return (
    <Card className="p-4">
      <h2 className="mb-2 font-semibold">{t.checkout.methodTitle}</h2>
      <MethodChoice label={t.checkout.methodTitle} method={method} onMethod={onMethod} disabled={disabled} className="h-14 sm:h-16" />
      {method === 'efectivo' && (
        <div className="mt-3 space-y-3">
          {/* Exacto and the quick amounts first: on a phone they sit above the fold, one tap each. */}
          <div className="flex flex-wrap gap-2" role="group" aria-label={t.checkout.quickCash}>
            <Button variant="outline" disabled={disabled} onClick={onExact} className="h-11 min-w-16 flex-1">
              {t.checkout.exact}
            </Button>
            {quickCashAmounts(total).map((cents) => (
              <Button
                key={cents}
                variant="outline"
                disabled={disabled}
                aria-pressed={receivedCents === cents}
                onClick={() => onAmount(cents)}
                className="h-11 min-w-16 flex-1 tabular-nums"
              >
                {money(cents).replace(/\.00$/, '')}
              </Button>
            ))}
          </div>
          <div>
            <Label htmlFor="cash-received">{t.checkout.received}</Label>
            <Input
              id="cash-received"
              type="number"
              inputMode="decimal"
              min={0}
              step={0.01}
              placeholder="0.00"
              disabled={disabled}
              value={received}
              onChange={(e) => onReceived(e.target.value)}
              className="h-12 text-lg tabular-nums"
            />
          </div>
          <div className="flex items-baseline justify-between rounded-lg bg-emerald-50 px-3 py-2">
            <span className="text-sm font-medium text-emerald-900">{t.checkout.change}</span>
            <span className="text-xl font-bold tabular-nums text-emerald-900" data-testid="cash-change">
              {money(receivedCents === null ? 0 : changeDue(receivedCents, total))}
            </span>
          </div>
          {short > 0 && <p className="text-sm font-medium text-rose-700">{t.checkout.missing(money(short))}</p>}
          <p className="text-xs text-slate-500">{CASH_HINT}</p>
        </div>
      )}
    </Card>
  );
}
