import type { ReactNode } from 'react';
import { CheckCircle2, Loader2, Smartphone, TriangleAlert, XCircle } from 'lucide-react';
import type { CardTerminal } from '@comanda/contract';
import type { CardDialogState } from '@comanda/domain';
import { Spinner } from '../../components/ui/spinner.tsx';
import { ErrorState } from '../../components/ui/empty-state.tsx';
import { errorMessage } from '../../lib/api.ts';
import type { useEnabledTerminals } from './card-payment-api.ts';
import { cn } from '../../components/ui/cn.ts';
import { t } from '../../lib/i18n/es-MX.ts';

export function TerminalChoice({
  terminals,
  value,
  onChange,
}: {
  terminals: CardTerminal[];
  value: string | null;
  onChange: (id: string) => void;
}) {
  return (
    <fieldset className="space-y-2">
      <legend className="mb-2 text-sm font-medium text-slate-700">{t.card.selectTerminal}</legend>
      {terminals.map((terminal) => (
        <label
          key={terminal.id}
          className={cn(
            'flex cursor-pointer items-center gap-3 rounded-lg border p-3 text-sm',
            value === terminal.id ? 'border-brand-500 bg-brand-50 ring-2 ring-brand-500/30' : 'border-slate-200 hover:bg-slate-50',
          )}
        >
          <input
            type="radio"
            name="card-terminal"
            className="h-4 w-4 accent-slate-900"
            checked={value === terminal.id}
            onChange={() => onChange(terminal.id)}
          />
          <Smartphone className="h-5 w-5 text-slate-500" aria-hidden />
          <span className="min-w-0">
            <span className="block font-medium text-slate-900">{terminal.name}</span>
            {terminal.location && <span className="block truncate text-xs text-slate-500">{terminal.location}</span>}
          </span>
        </label>
      ))}
    </fieldset>
  );
}

export function Warning({ children }: { children: ReactNode }) {
  return (
    <p role="alert" className="flex items-start gap-2 rounded-lg border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900">
      <TriangleAlert className="mt-0.5 h-4 w-4 shrink-0" aria-hidden />
      <span>{children}</span>
    </p>
  );
}

/** sending and processing: the customer is at the terminal. */
export function Waiting({ title, hint, detail }: { title: string; hint?: string; detail?: string }) {
  return (
    <div role="status" className="flex flex-col items-center gap-3 py-4 text-center">
      <Loader2 className="h-10 w-10 animate-spin text-brand-600" aria-hidden />
      <p className="font-semibold text-slate-900">{title}</p>
      {hint && <p className="text-sm text-slate-600">{hint}</p>}
      {detail && <p className="text-xs text-slate-500">{detail}</p>}
    </div>
  );
}

export function Outcome({ tone, title, message }: { tone: 'success' | 'rejected' | 'error'; title: string; message?: string | null }) {
  const Icon = tone === 'success' ? CheckCircle2 : tone === 'rejected' ? XCircle : TriangleAlert;
  return (
    <div role={tone === 'success' ? 'status' : 'alert'} className="flex flex-col items-center gap-2 py-4 text-center">
      <Icon className={cn('h-12 w-12', tone === 'success' ? 'text-emerald-600' : 'text-rose-600')} aria-hidden />
      <p className={cn('text-lg font-semibold', tone === 'success' ? 'text-emerald-800' : 'text-rose-800')}>{title}</p>
      {message && <p className="text-sm text-slate-700">{message}</p>}
    </div>
  );
}

export interface BodyProps {
  view: CardDialogState;
  terminals: ReturnType<typeof useEnabledTerminals>;
  terminalId: string | null;
  onTerminal: (id: string) => void;
  tooSmall: string | null;
  reason: string;
  /** A transfer at the terminal never speaks of a card. */
  method: 'tarjeta' | 'transferencia';
  attempts?: string;
}

/** What the dialog shows in each state of SPEC §4. */
export function Body({ view, terminals, terminalId, onTerminal, tooSmall, reason, method, attempts }: BodyProps) {
  const chosen = terminals.data?.find((x) => x.id === terminalId);
  switch (view) {
    case 'select-terminal':
      if (terminals.isPending) return <Spinner />;
      if (terminals.isError)
        return <ErrorState message={errorMessage(terminals.error, t.card.loadError)} onRetry={() => void terminals.refetch()} />;
      if (terminals.data.length === 0) return <Warning>{t.card.noEnabledTerminals}</Warning>;
      return <TerminalChoice terminals={terminals.data} value={terminalId} onChange={onTerminal} />;
    case 'initial':
      return (
        <div className="space-y-3">
          <p className="text-sm text-slate-700">
            {t.card.terminal}: <span className="font-medium text-slate-900">{chosen?.name ?? terminalId}</span>
          </p>
          {tooSmall && <Warning>{tooSmall}</Warning>}
        </div>
      );
    case 'sending':
      return <Waiting title={t.card.sending} />;
    case 'processing':
      return (
        <Waiting
          title={t.card.processing}
          hint={method === 'transferencia' ? t.card.sentHintTransfer : t.card.sentHint}
          detail={attempts}
        />
      );
    case 'success':
      return <Outcome tone="success" title={t.card.success} message={t.card.successHint} />;
    case 'rejected':
      return <Outcome tone="rejected" title={t.card.rejected} message={reason === t.card.rejected ? null : reason} />;
    case 'error':
      return <Outcome tone="error" title={t.card.error} message={t.checkout.paymentError(reason)} />;
    case 'confirm-close':
      return (
        <div className="space-y-2 py-2">
          <p className="font-semibold text-slate-900">{t.card.confirmClose}</p>
          <p className="text-sm text-slate-600">{t.card.confirmCloseHint}</p>
        </div>
      );
  }
}
