import { useEffect, useRef, useState } from 'react';
import { Delete } from 'lucide-react';
import { pinInputError, PIN_LENGTH } from '@comanda/domain';
import { Dialog } from './ui/dialog.tsx';
import { Button } from './ui/button.tsx';
import { cn } from './ui/cn.ts';
import { t } from '../lib/i18n/es-MX.ts';
import { errorMessage } from '../lib/api.ts';

export interface PinDialogProps {
  open: boolean;
  title?: string;
  description?: string;
  onClose: () => void;
  /** Resolves when the server accepted the PIN; a rejection's message is shown in the dialog. */
  onSubmit: (pin: string) => Promise<unknown>;
}

const KEYS = ['1', '2', '3', '4', '5', '6', '7', '8', '9'];

/**
 * 4-digit keypad that verifies by itself on the 4th digit (Verificar stays for an empty or short
 * PIN, with the spec's messages). Escape or an outside click closes it, except while checking.
 */
export function PinDialog({ open, title = t.pin.title, description, onClose, onSubmit }: PinDialogProps) {
  const [pin, setPinState] = useState('');
  // The digits typed so far, read by handlers that may run before the next render (fast typing).
  const entered = useRef('');
  const setPin = (next: string | ((p: string) => string)) => {
    entered.current = typeof next === 'function' ? next(entered.current) : next;
    setPinState(entered.current);
  };
  const [error, setError] = useState<string | null>(null);
  const [loading, setLoading] = useState(false);
  // One check at a time: the 4th digit and a tap on Verificar (or Enter) in the same instant send one.
  const checking = useRef(false);

  useEffect(() => {
    if (open) {
      setPin('');
      setError(null);
    }
  }, [open]);

  const press = (digit: string) => {
    if (checking.current || entered.current.length >= PIN_LENGTH) return;
    const next = entered.current + digit;
    setError(null);
    setPin(next);
    if (next.length === PIN_LENGTH) void submit(next);
  };
  const submit = async (typed = entered.current) => {
    if (checking.current) return;
    const invalid = pinInputError(typed);
    if (invalid) {
      setError(invalid);
      return;
    }
    checking.current = true;
    setLoading(true);
    try {
      await onSubmit(typed);
    } catch (err) {
      setError(errorMessage(err, t.pin.wrong));
      setPin('');
    } finally {
      checking.current = false;
      setLoading(false);
    }
  };

  useEffect(() => {
    if (!open) return;
    const onKey = (e: KeyboardEvent) => {
      if (checking.current) return;
      if (/^\d$/.test(e.key)) press(e.key);
      else if (e.key === 'Backspace') setPin((p) => p.slice(0, -1));
      else if (e.key === 'Enter') void submit();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  });

  return (
    <Dialog open={open} onClose={onClose} title={title} locked={loading} className="max-w-xs">
      {description && <p className="mb-3 text-sm text-slate-600">{description}</p>}
      <div
        className="mb-3 flex justify-center gap-3"
        role="img"
        aria-label={t.pin.entered(pin.length, PIN_LENGTH)}
        data-testid="pin-display"
      >
        {Array.from({ length: PIN_LENGTH }, (_, i) => (
          <span
            key={i}
            className={cn('h-4 w-4 rounded-full border-2', i < pin.length ? 'border-slate-900 bg-slate-900' : 'border-slate-300')}
          />
        ))}
      </div>
      <p role="alert" className={cn('mb-3 min-h-5 text-center text-sm text-rose-700', !error && 'invisible')}>
        {error ?? '·'}
      </p>
      <div className="grid grid-cols-3 gap-2">
        {KEYS.map((k) => (
          <Button key={k} variant="outline" size="lg" disabled={loading} onClick={() => press(k)} aria-label={k}>
            {k}
          </Button>
        ))}
        {/* One way to correct: ⌫ removes the last digit (a second "Borrar" key was redundant). */}
        <span aria-hidden />
        <Button variant="outline" size="lg" disabled={loading} onClick={() => press('0')} aria-label="0">
          0
        </Button>
        <Button variant="ghost" size="lg" disabled={loading} onClick={() => setPin((p) => p.slice(0, -1))} aria-label={t.pin.backspace}>
          <Delete className="h-5 w-5" aria-hidden />
        </Button>
      </div>
      <Button className="mt-4 w-full" size="lg" variant="accent" disabled={loading} onClick={() => void submit()}>
        {loading ? t.app.loading : t.pin.verify}
      </Button>
    </Dialog>
  );
}
