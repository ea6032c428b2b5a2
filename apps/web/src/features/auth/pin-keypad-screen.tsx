import { useEffect, useRef, useState } from 'react';
import { ChevronLeft, Delete, Mail, Tablet } from 'lucide-react';
import { PIN_LENGTH } from '@comanda/domain';
import type { SessionUser, SharedDevicePerson } from '@comanda/contract';
import { BrandMark } from '../../components/brand-mark.tsx';
import { Card } from '../../components/ui/card.tsx';
import { cn } from '../../components/ui/cn.ts';
import { errorMessage } from '../../lib/api.ts';
import { t } from '../../lib/i18n/first-screen.ts';
import { Spinner } from '../../components/ui/spinner.tsx';
import { useDevicePeople, usePinLogin } from '../../lib/shared-device.ts';

const KEYS = ['1', '2', '3', '4', '5', '6', '7', '8', '9'];
const KEY_CLASS =
  'flex h-20 w-20 items-center justify-center rounded-2xl text-3xl font-semibold transition-colors select-none focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-500 disabled:opacity-50 sm:h-[88px] sm:w-[88px]';

/**
 * The sign-in screen of an enrolled shared device: first the staff by name (one big button each),
 * then a big keypad for that person's PIN; the fourth digit sends it (no extra tap). Only the
 * chosen person's PIN is checked. "Entrar con correo" goes back to the usual form (the admin's way in).
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
  const people = useDevicePeople();
  const [person, setPerson] = useState<SharedDevicePerson | null>(null);
  const [pin, setPin] = useState('');
  const [error, setError] = useState<string | null>(null);
  const busy = pinLogin.isPending;
  const sent = useRef(false);
  const heading = useRef<HTMLHeadingElement>(null);
  const mounted = useRef(false);

  // Each step's heading takes the focus, so a screen reader hears where it is now.
  useEffect(() => {
    if (mounted.current) heading.current?.focus();
    mounted.current = true;
  }, [person]);

  useEffect(() => {
    if (!person || pin.length < PIN_LENGTH || sent.current) return;
    sent.current = true;
    pinLogin.mutate(
      { userId: person.id, pin },
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
  }, [pin, person, pinLogin, onSignedIn]);

  const choose = (next: SharedDevicePerson | null) => {
    if (busy) return;
    setPerson(next);
    setPin('');
    setError(null);
  };
  const press = (digit: string) => {
    if (busy || !person) return;
    setError(null);
    setPin((p) => (p.length >= PIN_LENGTH ? p : p + digit));
  };
  const back = () => !busy && setPin((p) => p.slice(0, -1));

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (/^\d$/.test(e.key)) press(e.key);
      else if (e.key === 'Backspace') back();
      else if (e.key === 'Escape') choose(null);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  });

  return (
    <main className="flex min-h-screen items-center justify-center bg-gradient-to-br from-slate-900 via-slate-800 to-slate-900 p-4">
      <Card className={cn('w-full p-6', person ? 'max-w-sm' : 'max-w-md')}>
        {/* On the keypad the chosen name takes the logo's place, so the keypad fits a 768 px tall tablet. */}
        {person && (
          <button
            type="button"
            disabled={busy}
            onClick={() => choose(null)}
            className="-ml-2 -mt-2 mb-1 flex min-h-11 items-center gap-1 rounded-lg px-2 text-sm font-medium text-slate-700 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-brand-500 disabled:opacity-50"
          >
            <ChevronLeft className="h-4 w-4" aria-hidden />
            {t.sharedDevices.otherPerson}
          </button>
        )}
        <div className="mb-4 flex flex-col items-center gap-2 text-center">
          {!person && (
            <>
              <BrandMark logoUrl={logoUrl} size="lg" />
              <p className="text-lg font-bold">{appName}</p>
            </>
          )}
          <h1 ref={heading} tabIndex={-1} className="text-2xl font-bold focus:outline-none">
            {person ? t.sharedDevices.keypadTitle : t.sharedDevices.pickTitle}
          </h1>
          {person && (
            <p className="text-xl font-semibold break-words text-slate-900" data-testid="pin-person">
              {person.displayName}
            </p>
          )}
          {deviceName && (
            <p className="flex items-center gap-1 text-sm text-slate-600">
              <Tablet className="h-4 w-4" aria-hidden />
              {deviceName}
            </p>
          )}
        </div>
        {person ? (
          <>
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
          </>
        ) : (
          <PeopleList people={people} onChoose={choose} />
        )}
        <button
          type="button"
          onClick={onUseEmail}
          className="mx-auto mt-5 flex min-h-11 items-center gap-2 rounded-lg px-4 text-sm font-medium text-slate-700 underline-offset-4 hover:bg-slate-100 hover:underline focus-visible:outline-2 focus-visible:outline-brand-500"
        >
          <Mail className="h-4 w-4" aria-hidden />
          {t.sharedDevices.useEmail}
        </button>
        {!person && <p className="mt-1 text-center text-xs text-slate-600">{t.sharedDevices.adminNote}</p>}
      </Card>
    </main>
  );
}

/** The staff who sign in here by PIN, one big button per name (and role, for two of the same name). */
function PeopleList({ people, onChoose }: { people: ReturnType<typeof useDevicePeople>; onChoose: (person: SharedDevicePerson) => void }) {
  if (people.isPending)
    return (
      <div className="flex justify-center py-8">
        <Spinner />
      </div>
    );
  if (people.isError)
    return (
      <div className="py-6 text-center">
        <p role="alert" className="mb-3 text-sm font-medium text-rose-700">
          {t.sharedDevices.peopleLoadError}
        </p>
        <button
          type="button"
          onClick={() => void people.refetch()}
          className="min-h-11 rounded-lg bg-slate-100 px-4 text-sm font-medium text-slate-900 hover:bg-slate-200 focus-visible:outline-2 focus-visible:outline-brand-500"
        >
          {t.app.retry}
        </button>
      </div>
    );
  if (people.data.people.length === 0) return <p className="py-6 text-center text-sm text-slate-600">{t.sharedDevices.noPeople}</p>;
  return (
    <>
      <p className="mb-3 text-center text-sm text-slate-600">{t.sharedDevices.pickHint}</p>
      <ul aria-label={t.sharedDevices.pickList} className="grid max-h-[55vh] grid-cols-2 gap-3 overflow-y-auto p-1">
        {people.data.people.map((person) => (
          <li key={person.id}>
            <button
              type="button"
              onClick={() => onChoose(person)}
              aria-label={`${person.displayName}, ${t.roles[person.role]}`}
              className="flex min-h-16 w-full flex-col items-start justify-center rounded-2xl bg-slate-100 px-4 py-2 text-left transition-colors select-none hover:bg-slate-200 active:bg-slate-300 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-500"
            >
              <span className="w-full text-base leading-snug font-semibold break-words text-slate-900 sm:text-lg">
                {person.displayName}
              </span>
              <span className="text-xs text-slate-600">{t.roles[person.role]}</span>
            </button>
          </li>
        ))}
      </ul>
    </>
  );
}
