import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { type ReportKind, ReportsResponseSchema } from '@comanda/contract';
import { get } from '../../lib/api.ts';
import { useLiveQueries } from '../../lib/use-live.ts';

export const REPORTS_KEY = ['reports'] as const;

const range = (from: string, to: string) => `from=${encodeURIComponent(from)}&to=${encodeURIComponent(to)}`;

/** Every report for the business days from..to (the server applies the time zone and day start). */
export function useReports(from: string, to: string, enabled: boolean) {
  // A new paid ticket changes the figures: refetch while the screen is open.
  useLiveQueries(['tickets'], [REPORTS_KEY]);
  return useQuery({
    queryKey: [...REPORTS_KEY, from, to],
    queryFn: () => get(ReportsResponseSchema, `/api/reports?${range(from, to)}`),
    placeholderData: keepPreviousData,
    enabled,
  });
}

export const exportUrl = (format: 'csv' | 'xlsx', from: string, to: string, report: ReportKind = 'todos') =>
  `/api/reports/export.${format}?${range(from, to)}${report === 'todos' ? '' : `&report=${report}`}`;
