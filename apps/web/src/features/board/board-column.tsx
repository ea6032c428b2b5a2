import type { ReactNode } from 'react';
import { cn } from '../../components/ui/cn.ts';

interface Props {
  title: string;
  count: number;
  tone: 'pending' | 'ready' | 'delivered';
  empty: string;
  note?: string;
  /** Lays its tickets out in two columns when there is room (Pendientes). */
  wide?: boolean;
  /** Shown above the tickets (Entregados: the recent moves to send back). */
  top?: ReactNode;
  children: ReactNode[];
}

const TONES = {
  pending: 'bg-amber-500 text-slate-950',
  ready: 'bg-emerald-700 text-white',
  delivered: 'bg-slate-600 text-white',
} as const;

export function BoardColumn({ title, count, tone, empty, note, wide, top, children }: Props) {
  const id = `board-col-${tone}`;
  return (
    <section
      aria-labelledby={id}
      className="@container flex min-w-0 flex-col rounded-2xl bg-slate-200/70 p-2"
      data-testid={`column-${tone}`}
    >
      <header className={cn('flex items-center justify-between rounded-xl px-3 py-2', TONES[tone])}>
        <h2 id={id} className="text-lg font-extrabold">
          {title}
        </h2>
        <span
          className="min-w-10 rounded-full bg-white/90 px-3 py-0.5 text-center text-lg font-black tabular-nums text-slate-900"
          data-testid="column-count"
        >
          {count}
        </span>
      </header>
      {note && <p className="px-2 pt-2 text-xs font-medium text-slate-600">{note}</p>}
      {top && <div className="mt-2">{top}</div>}
      <div className={cn('mt-2 grid content-start items-start gap-2', wide && '@md:grid-cols-2')}>
        {children.length > 0 ? (
          children
        ) : (
          <p className="rounded-xl border-2 border-dashed border-slate-300 p-6 text-center text-lg font-semibold text-slate-600 @md:col-span-2">
            {empty}
          </p>
        )}
      </div>
    </section>
  );
}
