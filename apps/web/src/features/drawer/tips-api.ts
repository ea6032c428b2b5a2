import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type TipPayoutBody, type TipPool, TipPayoutResponseSchema, TipPoolSchema, TipsResponseSchema } from '@comanda/contract';
import { get, post, put } from '../../lib/api.ts';
import { useLiveQueries } from '../../lib/use-live.ts';
import { DRAWER_KEY } from './drawer-api.ts';

export const TIPS_KEY = ['drawer', 'tips'] as const;

/** The open session's tips (no dates), or a range of business dates. */
export type TipsScope = { kind: 'session' } | { kind: 'range'; from: string; to: string };

export function useTips(scope: TipsScope) {
  // A payout changes the drawer; a paid order (its tips) is a ticket.
  useLiveQueries(['drawer', 'tickets'], [TIPS_KEY]);
  const query = scope.kind === 'session' ? '' : `?from=${encodeURIComponent(scope.from)}&to=${encodeURIComponent(scope.to)}`;
  return useQuery({ queryKey: [...TIPS_KEY, query], queryFn: () => get(TipsResponseSchema, `/api/drawer/tips${query}`) });
}

/** One payout; the key is kept by the dialog, so a retry after a lost answer is counted once. */
export function usePayTip() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async ({ body, key }: { body: TipPayoutBody; key: string }) => {
      const res = await post(TipPayoutResponseSchema, '/api/drawer/tips/payouts', body, {
        'idempotency-key': key,
      });
      return { movement: res.movement, printJobs: res.printJobs ?? 0 };
    },
    onSuccess: () => {
      void qc.invalidateQueries({ queryKey: TIPS_KEY });
      void qc.invalidateQueries({ queryKey: DRAWER_KEY });
    },
  });
}

export function useSaveTipPool() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (pool: TipPool) => put(TipPoolSchema, '/api/drawer/tips/pool', pool),
    onSuccess: () => void qc.invalidateQueries({ queryKey: TIPS_KEY }),
  });
}
