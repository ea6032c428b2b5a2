import { useState } from 'react';
import { LogOut, User } from 'lucide-react';
import { cn } from '../../components/ui/cn.ts';
import { t } from '../../lib/i18n/es-MX.ts';

/** Floating bottom-left menu with who is signed in and Cerrar Sesión. */
export function FloatingUserMenu({ title, subtitle, onLogout, busy }: { title: string; subtitle: string; onLogout: () => void; busy?: boolean }) {
  const [open, setOpen] = useState(false);
  return (
    <div className="fixed bottom-4 left-4 z-30 print:hidden">
      {open && (
        <div className="mb-2 w-64 rounded-xl border border-slate-200 bg-white p-3 shadow-xl">
          <p className="truncate font-semibold">{title}</p>
          <p className="truncate text-sm text-slate-500">{subtitle}</p>
          <button type="button" disabled={busy} onClick={onLogout} className="mt-3 flex w-full items-center gap-2 rounded-lg px-2 py-2 text-sm font-medium text-rose-700 hover:bg-rose-50">
            <LogOut className="h-4 w-4" aria-hidden />
            {t.logout.action}
          </button>
        </div>
      )}
      <button type="button" aria-label="Menú de usuario" aria-expanded={open} onClick={() => setOpen((v) => !v)} className={cn('flex h-12 w-12 items-center justify-center rounded-full bg-slate-900 text-white shadow-lg', open && 'ring-4 ring-brand-500/40')}>
        <User className="h-5 w-5" aria-hidden />
      </button>
    </div>
  );
}
