import { useQuery } from '@tanstack/react-query';
import { type Role, PrintAlertsResponseSchema } from '@comanda/contract';
import { get } from './api.ts';
import { useLiveQueries } from './use-live.ts';

export const PRINT_ALERTS_KEY = ['printers', 'alerts'] as const;

/** Printers with comandas unprinted past the alert time (admin: all; kitchen/bar: their own). */
export function usePrintAlerts(role: Role | undefined) {
  const enabled = role === 'admin' || role === 'kitchen' || role === 'barra';
  useLiveQueries(enabled ? ['printers'] : [], [PRINT_ALERTS_KEY]);
  return useQuery({
    queryKey: PRINT_ALERTS_KEY,
    queryFn: async () => (await get(PrintAlertsResponseSchema, '/api/printers/alerts')).alerts,
    enabled,
    // The alert starts when a job gets old, with no change to announce it: check now and then too.
    refetchInterval: 30_000,
    retry: false,
  });
}
