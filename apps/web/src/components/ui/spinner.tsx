import { Loader2 } from 'lucide-react';
import { t } from '../../lib/i18n/first-screen.ts';

/**
 * Loading: the label, small, over grey placeholders shaped like the cards to come, so the
 * screen keeps its layout instead of flashing a blank page.
 */
export function Spinner({ label = t.app.loading, placeholders = 3 }: { label?: string; placeholders?: number }) {
  return (
    <div role="status" className="space-y-3 p-4">
      <p className="flex items-center gap-2 text-sm text-slate-600">
        <Loader2 className="h-4 w-4 animate-spin" aria-hidden />
        <span>{label}</span>
      </p>
      <div className="grid gap-3 sm:grid-cols-2 lg:grid-cols-3" aria-hidden>
        {Array.from({ length: placeholders }, (_, i) => (
          <div key={i} className="h-28 animate-pulse rounded-xl bg-slate-200/70" />
        ))}
      </div>
    </div>
  );
}

/** The whole app while the session is checked: a header bar and placeholder cards. */
export function AppPlaceholder() {
  return (
    <div className="min-h-screen bg-slate-50">
      <div className="h-14 border-b border-slate-200 bg-white" aria-hidden />
      <div className="mx-auto max-w-3xl">
        <Spinner placeholders={4} />
      </div>
    </div>
  );
}
