import { Loader2 } from 'lucide-react';
import { t } from '../../lib/i18n/es-MX.ts';

export function Spinner({ label = t.app.loading }: { label?: string }) {
  return (
    <div role="status" className="flex items-center justify-center gap-2 p-8 text-slate-500">
      <Loader2 className="h-5 w-5 animate-spin" aria-hidden />
      <span>{label}</span>
    </div>
  );
}
