import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { CashCloseResponseSchema, OutsideShiftResponseSchema } from '@comanda/contract';
import { get } from '../../lib/api.ts';
import { useLiveQueries } from '../../lib/use-live.ts';

export const CASH_CLOSE_KEY = ['cash-close'] as const;

const dateQuery = (date: string | undefined) => (date ? `?date=${encodeURIComponent(date)}` : '');

/** The shift report; without a date the server picks the default shift (SPEC §9). */
export function useCashClose(date: string | undefined) {
  // A new paid ticket changes the totals: refetch while the screen is open.
  useLiveQueries(['tickets'], [CASH_CLOSE_KEY]);
  return useQuery({
    queryKey: [...CASH_CLOSE_KEY, 'report', date ?? 'default'],
    queryFn: () => get(CashCloseResponseSchema, `/api/cash-close${dateQuery(date)}`),
    placeholderData: keepPreviousData,
  });
}

export function useOutsideShift(date: string, enabled: boolean) {
  return useQuery({
    queryKey: [...CASH_CLOSE_KEY, 'outside', date],
    queryFn: () => get(OutsideShiftResponseSchema, `/api/cash-close/outside${dateQuery(date)}`),
    enabled,
  });
}

export const exportCsvUrl = (date: string) => `/api/cash-close/export.csv${dateQuery(date)}`;
