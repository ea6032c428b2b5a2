import { forwardRef, type SelectHTMLAttributes } from 'react';
import { cn } from './cn.ts';

/** A form's select: 44 px high like the text inputs. */
export const SELECT =
  'h-11 w-full rounded-lg border border-slate-300 bg-white px-3 focus:border-brand-500 focus:outline-none focus:ring-2 focus:ring-brand-500/30';

export const Select = forwardRef<HTMLSelectElement, SelectHTMLAttributes<HTMLSelectElement>>(function Select({ className, ...props }, ref) {
  return <select ref={ref} className={cn(SELECT, className)} {...props} />;
});

/** A SAT catalogue as a select's options: the "Elige…" entry first, then each one as "code · name". */
export function CatalogOptions({ pick, entries }: { pick: string; entries: readonly { code: string; name: string }[] }) {
  return (
    <>
      <option value="">{pick}</option>
      {entries.map((e) => (
        <option key={e.code} value={e.code}>
          {e.code} · {e.name}
        </option>
      ))}
    </>
  );
}
