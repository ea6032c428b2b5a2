import { Loader2 } from 'lucide-react';
import type { CardTerminal } from '@comanda/contract';
import { Badge } from '../../components/ui/badge.tsx';
import { cn } from '../../components/ui/cn.ts';
import { t } from '../../lib/i18n/es-MX.ts';

export function Waiting({ label }: { label: string }) {
  return (
    <p role="status" className="flex items-center gap-2 text-sm text-slate-700">
      <Loader2 className="h-4 w-4 animate-spin" aria-hidden />
      {label}
    </p>
  );
}

/** An accessible on/off switch; its visible text says the current state. */
export function Toggle({
  checked,
  label,
  disabled,
  onChange,
}: {
  checked: boolean;
  label: string;
  disabled?: boolean;
  onChange: (v: boolean) => void;
}) {
  return (
    <button
      type="button"
      role="switch"
      aria-checked={checked}
      aria-label={label}
      disabled={disabled}
      onClick={() => onChange(!checked)}
      className="inline-flex min-h-11 items-center gap-2 text-sm font-medium disabled:opacity-50"
    >
      <span
        className={cn(
          'relative inline-flex h-6 w-11 items-center rounded-full transition-colors',
          checked ? 'bg-emerald-600' : 'bg-slate-300',
        )}
      >
        <span
          className={cn(
            'inline-block h-5 w-5 rounded-full bg-white shadow transition-transform',
            checked ? 'translate-x-5' : 'translate-x-0.5',
          )}
        />
      </span>
      <span className={checked ? 'text-emerald-800' : 'text-slate-500'}>{checked ? t.terminalTab.enabled : t.terminalTab.disabled}</span>
    </button>
  );
}

export function TerminalRow({
  terminal,
  busy,
  onToggle,
  onPdv,
}: {
  terminal: CardTerminal;
  busy: boolean;
  onToggle: (v: boolean) => void;
  onPdv: () => void;
}) {
  const pdv = terminal.operatingMode === 'PDV';
  return (
    <li data-testid="terminal-row" className="flex flex-col gap-2 px-4 py-3 sm:flex-row sm:items-center sm:justify-between">
      <div className="min-w-0">
        <p className="font-medium text-slate-900">{terminal.name}</p>
        <p className="truncate font-mono text-xs text-slate-500">{terminal.id}</p>
        <div className="mt-1 flex flex-wrap items-center gap-1.5 text-xs text-slate-500">
          {terminal.location && <span>{terminal.location}</span>}
          <Badge tone={pdv ? 'success' : 'warning'}>
            {t.terminalTab.mode} {terminal.operatingMode ?? '—'}
          </Badge>
          {!pdv && (
            <button type="button" className="font-medium text-slate-700 underline" onClick={onPdv} disabled={busy}>
              {t.terminalTab.pdvMode}
            </button>
          )}
        </div>
      </div>
      <Toggle checked={terminal.enabled} label={t.terminalTab.toggle(terminal.name)} disabled={busy} onChange={onToggle} />
    </li>
  );
}

/** One term and its value of a status list. */
export function Row({ term, value, mono }: { term: string; value: string; mono?: boolean }) {
  return (
    <div className="flex justify-between gap-3 border-b border-slate-100 pb-1 sm:block sm:border-0 sm:pb-0">
      <dt className="text-slate-500">{term}</dt>
      <dd className={mono ? 'font-mono text-slate-900' : 'font-medium text-slate-900'}>{value}</dd>
    </div>
  );
}
