import { useEffect, useId, useRef, useState } from 'react';
import { LogOut, User, Users } from 'lucide-react';
import { toast } from 'sonner';
import { clsx } from 'clsx';
import { t } from '../../lib/i18n/es-MX.ts';
import { useLockDevice, useSharedDevice } from '../../lib/shared-device.ts';

/**
 * Who is signed in and Cerrar Sesión behind a round button. 'bottom-left' floats over the
 * waiter's tables; 'top-right' sits in the kitchen's header bar so it never covers a card's
 * 'Marcar Listo' on a busy board.
 */
export function FloatingUserMenu({
  title,
  subtitle,
  onLogout,
  busy,
  placement = 'bottom-left',
}: {
  title: string;
  subtitle: string;
  onLogout: () => void;
  busy?: boolean;
  placement?: 'bottom-left' | 'top-right';
}) {
  const [open, setOpen] = useState(false);
  const device = useSharedDevice();
  const panelId = useId();
  const root = useRef<HTMLDivElement>(null);
  // A tap anywhere else or Escape closes it, like any menu.
  useEffect(() => {
    if (!open) return;
    const onDown = (e: PointerEvent) => {
      if (!root.current?.contains(e.target as Node)) setOpen(false);
    };
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') setOpen(false);
    };
    document.addEventListener('pointerdown', onDown);
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('pointerdown', onDown);
      document.removeEventListener('keydown', onKey);
    };
  }, [open]);
  const top = placement === 'top-right';
  const panel = open && (
    <div
      id={panelId}
      className={clsx(
        'w-64 rounded-xl border border-slate-200 bg-white p-3 text-slate-900 shadow-xl',
        top ? 'absolute top-full right-0 mt-2' : 'mb-2',
      )}
    >
      <p className="truncate font-semibold">{title}</p>
      <p className="truncate text-sm text-slate-500">{subtitle}</p>
      {device.data?.enrolled && <SwitchUserButton />}
      <button
        type="button"
        disabled={busy}
        onClick={onLogout}
        className="mt-3 flex h-11 w-full items-center gap-2 rounded-lg px-2 text-sm font-medium text-rose-700 hover:bg-rose-50 focus-visible:outline-2 focus-visible:outline-brand-500"
      >
        <LogOut className="h-4 w-4" aria-hidden />
        {t.logout.action}
      </button>
    </div>
  );
  return (
    <div ref={root} className={clsx('fixed z-30 print:hidden', top ? 'top-1.5 right-3' : 'bottom-4 left-4')}>
      {!top && panel}
      <button
        type="button"
        aria-label={t.nav.userMenu}
        aria-expanded={open}
        aria-controls={open ? panelId : undefined}
        onClick={() => setOpen((v) => !v)}
        className={clsx(
          'flex items-center justify-center rounded-full text-white focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-500',
          top ? 'h-11 w-11 bg-slate-700 hover:bg-slate-600' : 'h-12 w-12 bg-slate-900 shadow-lg',
          open && 'ring-4 ring-brand-500/40',
        )}
      >
        <User className="h-5 w-5" aria-hidden />
      </button>
      {top && panel}
    </div>
  );
}

/** On an enrolled shared device: closes this session and shows the PIN keypad for the next person. */
export function SwitchUserButton({ tone = 'light' }: { tone?: 'light' | 'dark' }) {
  const { lock, pending } = useLockDevice();
  return (
    <button
      type="button"
      disabled={pending}
      onClick={() => lock({ onError: () => toast.error(t.logout.error) })}
      className={clsx(
        'mt-3 flex h-11 w-full items-center gap-2 rounded-lg px-2 text-sm font-medium focus-visible:outline-2 focus-visible:outline-brand-500',
        tone === 'dark' ? 'text-slate-200 hover:bg-slate-800 hover:text-white' : 'text-slate-800 hover:bg-slate-100',
      )}
    >
      <Users className="h-4 w-4" aria-hidden />
      {t.sharedDevices.switchUser}
    </button>
  );
}
