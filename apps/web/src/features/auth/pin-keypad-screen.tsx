import { useEffect, useRef, useState } from 'react';
import { Delete, Mail, Tablet } from 'lucide-react';
import { PIN_LENGTH } from '@comanda/domain';
import type { SessionUser } from '@comanda/contract';
import { BrandMark } from '../../components/brand-mark.tsx';
import { Card } from '../../components/ui/card.tsx';
import { cn } from '../../components/ui/cn.ts';
import { errorMessage } from '../../lib/api.ts';
import { t } from '../../lib/i18n/first-screen.ts';
import { usePinLogin } from '../../lib/shared-device.ts';

const KEYS = ['1', '2', '3', '4', '5', '6', '7', '8', '9'];
const KEY_CLASS =
  'flex h-20 w-20 items-center justify-center rounded-2xl text-3xl font-semibold transition-colors select-none focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-500 disabled:opacity-50 sm:h-[88px] sm:w-[88px]';

/**
 * The sign-in screen of an enrolled shared device: a big keypad; the fourth digit sends the PIN
 * (no extra tap). "Entrar con correo" goes back to the usual form.
 */
export function PinKeypadScreen({
  appName,
  logoUrl,
  deviceName,
  onUseEmail,
  onSignedIn,
}: {
  appName: string;
  logoUrl?: string | undefined;
  deviceName: string | null;
  onUseEmail: () => void;
  onSignedIn: (user: SessionUser) => void;
}) {
  const pinLogin = usePinLogin();
  const [pin, setPin] = useState('');
  const [error, setError] = useState<string | null>(null);
  const busy = pinLogin.isPending;
  const sent = useRef(false);

  useEffect(() => {
    if (pin.length < PIN_LENGTH || sent.current) return;
    sent.current = true;
    pinLogin.mutate(
      { pin },
      {
        onSuccess: ({ user }) => onSignedIn(user),
        onError: (err) => {
          setError(errorMessage(err, t.pin.wrong));
          setPin('');
        },
        onSettled: () => {
          sent.current = false;
        },
      },
    );
  }, [pin, pinLogin, onSignedIn]);

  const press = (digit: string) => {
    if (busy) return;
    setError(null);
    setPin((p) => (p.length >= PIN_LENGTH ? p : p + digit));
  };
  const back = () => !busy && setPin((p) => p.slice(0, -1));

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (/^\d$/.test(e.key)) press(e.key);
      else if (e.key === 'Backspace') back();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  });

  return (
    <main className="flex min-h-screen items-center justify-center bg-gradient-to-br from-slate-900 via-slate-800 to-slate-900 p-4">
      <Card className="w-full max-w-sm p-6">
        <div className="mb-4 flex flex-col items-center gap-2 text-center">
          <BrandMark logoUrl={logoUrl} size="lg" />
          <p className="text-lg font-bold">{appName}</p>
          <h1 className="text-2xl font-bold">{t.sharedDevices.keypadTitle}</h1>
          {deviceName && (
            <p className="flex items-center gap-1 text-sm text-slate-600">
              <Tablet className="h-4 w-4" aria-hidden />
              {deviceName}
            </p>
          )}
        </div>
        <div
          className="mb-2 flex justify-center gap-4"
          role="img"
          aria-label={t.pin.entered(pin.length, PIN_LENGTH)}
          data-testid="keypad-display"
        >
          {Array.from({ length: PIN_LENGTH }, (_, i) => (
            <span
              key={i}
              className={cn('h-5 w-5 rounded-full border-2', i < pin.length ? 'border-slate-900 bg-slate-900' : 'border-slate-500')}
            />
          ))}
        </div>
        <p role="alert" className={cn('mb-2 min-h-6 text-center text-sm font-medium text-rose-700', !error && !busy && 'invisible')}>
          {error ?? (busy ? t.sharedDevices.checking : '·')}
        </p>
        <div className="mx-auto grid w-fit grid-cols-3 gap-3" aria-label={t.sharedDevices.keypadHint} role="group">
          {KEYS.map((k) => (
            <button
              key={k}
              type="button"
              disabled={busy}
              onClick={() => press(k)}
              className={cn(KEY_CLASS, 'bg-slate-100 text-slate-900 hover:bg-slate-200 active:bg-slate-300')}
            >
              {k}
            </button>
          ))}
          <span aria-hidden />
          <button
            type="button"
            disabled={busy}
            onClick={() => press('0')}
            className={cn(KEY_CLASS, 'bg-slate-100 text-slate-900 hover:bg-slate-200 active:bg-slate-300')}
          >
            0
          </button>
          <button
            type="button"
            disabled={busy || pin.length === 0}
            onClick={back}
            aria-label={t.pin.backspace}
            className={cn(KEY_CLASS, 'text-slate-700 hover:bg-slate-100')}
          >
            <Delete className="h-8 w-8" aria-hidden />
          </button>
        </div>
        <button
          type="button"
          onClick={onUseEmail}
          className="mx-auto mt-5 flex min-h-11 items-center gap-2 rounded-lg px-4 text-sm font-medium text-slate-700 underline-offset-4 hover:bg-slate-100 hover:underline focus-visible:outline-2 focus-visible:outline-brand-500"
        >
          <Mail className="h-4 w-4" aria-hidden />
          {t.sharedDevices.useEmail}
        </button>
      </Card>
    </main>
  );
}
