import { useEffect, useMemo, useRef, useState } from 'react';
import { Receipt } from 'lucide-react';
import type { TicketSummary } from '@comanda/contract';
import { Button } from '../../components/ui/button.tsx';
import { EmptyState, ErrorState } from '../../components/ui/empty-state.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { errorMessage } from '../../lib/api.ts';
import { t } from '../../lib/i18n/es-MX.ts';
import { CancelledTickets } from './cancelled-tickets.tsx';
import { TicketCard } from './ticket-card.tsx';
import { groupByDay } from './ticket-dates.ts';
import { TicketDialog } from './ticket-dialog.tsx';
import { useTickets } from './tickets-api.ts';
import { SearchInput } from '../../components/ui/search-input.tsx';

/** Waits until typing pauses, so each keystroke does not hit the server. */
function useDebounced(value: string, ms: number): string {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return debounced;
}

export function TicketsPage() {
  const [term, setTerm] = useState('');
  const search = useDebounced(term.trim(), 300);
  const tickets = useTickets(search);
  const [open, setOpen] = useState<TicketSummary | null>(null);
  const first = tickets.data?.pages[0];
  const days = useMemo(
    () => groupByDay(tickets.data?.pages.flatMap((p) => p.tickets) ?? [], first?.today ?? ''),
    [tickets.data, first?.today],
  );
  const timezone = first?.timezone ?? 'America/Mexico_City';

  // Scrolling to the end loads the next page too; the button stays for keyboards and tests.
  const sentinel = useRef<HTMLDivElement>(null);
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = tickets;
  useEffect(() => {
    const node = sentinel.current;
    if (!node || !hasNextPage || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((e) => e.isIntersecting) && !isFetchingNextPage) void fetchNextPage();
    });
    observer.observe(node);
    return () => observer.disconnect();
  }, [hasNextPage, isFetchingNextPage, fetchNextPage]);

  return (
    <div className="space-y-6">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
        <h1 className="text-2xl font-bold text-slate-900">{t.tickets.title}</h1>
        <SearchInput
          value={term}
          onChange={setTerm}
          placeholder={t.tickets.search}
          label={t.tickets.searchLabel}
          className="w-full sm:max-w-sm"
        />
      </div>

      <CancelledTickets />
      {tickets.isPending && <Spinner />}
      {tickets.isError && <ErrorState message={errorMessage(tickets.error, t.tickets.loadError)} onRetry={() => void tickets.refetch()} />}
      {tickets.isSuccess && days.length === 0 && (
        <EmptyState icon={<Receipt className="h-8 w-8" aria-hidden />} title={search ? t.tickets.noResults(search) : t.tickets.empty} />
      )}

      {days.map((day) => (
        <section key={day.date} aria-label={day.label} className="space-y-3">
          <h2 className="sticky top-0 z-10 -mx-1 flex items-baseline justify-between bg-slate-50/95 px-1 py-2 text-sm font-semibold uppercase tracking-wide text-slate-600 backdrop-blur">
            <span>{day.label}</span>
            <span className="font-normal normal-case text-slate-600">{t.tickets.count(day.tickets.length)}</span>
          </h2>
          <div className="grid gap-3 sm:grid-cols-2 xl:grid-cols-3">
            {day.tickets.map((ticket) => (
              <TicketCard key={ticket.id} ticket={ticket} timezone={timezone} onOpen={() => setOpen(ticket)} />
            ))}
          </div>
        </section>
      ))}

      {hasNextPage && (
        <div ref={sentinel} className="flex justify-center">
          <Button variant="outline" onClick={() => void fetchNextPage()} disabled={isFetchingNextPage}>
            {isFetchingNextPage ? t.tickets.loadingMore : t.tickets.loadMore}
          </Button>
        </div>
      )}

      <TicketDialog orderId={open?.id ?? null} ticketNumber={open?.ticketNumber ?? ''} onClose={() => setOpen(null)} />
    </div>
  );
}
