import type { ReactNode } from 'react';
import { t } from '../../lib/i18n/first-screen.ts';

export function EmptyState({ icon, title, children }: { icon?: ReactNode; title: string; children?: ReactNode }) {
  return (
    <div className="flex flex-col items-center justify-center gap-2 rounded-xl border border-dashed border-slate-300 bg-white p-8 text-center text-slate-500">
      {icon}
      <p className="font-medium text-slate-700">{title}</p>
      {children}
    </div>
  );
}

export function ErrorState({ message, onRetry, retryLabel = t.app.retry }: { message: string; onRetry?: () => void; retryLabel?: string }) {
  return (
    <div
      role="alert"
      className="flex flex-col items-center gap-3 rounded-xl border border-rose-200 bg-rose-50 p-6 text-center text-rose-800"
    >
      <p>{message}</p>
      {onRetry && (
        <button
          type="button"
          onClick={onRetry}
          className="min-h-11 rounded-lg border border-rose-300 bg-white px-4 text-sm font-medium hover:bg-rose-100"
        >
          {retryLabel}
        </button>
      )}
    </div>
  );
}
