import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { TerminalListResponseSchema, TerminalResponseSchema, TerminalStatusSchema, TestChargeResponseSchema } from '@comanda/contract';
import { get, post, put } from '../../lib/api.ts';
import { useLiveQueries, useLiveTopics } from '../../lib/use-live.ts';

export const TERMINALS_KEY = ['terminals', 'all'] as const;
export const STATUS_KEY = ['terminals', 'status'] as const;

/** The provider's terminals merged with the enabled map, kept current by the 'terminals' topic. */
export function useTerminals() {
  useLiveQueries(['terminals'], [TERMINALS_KEY, STATUS_KEY]);
  return useQuery({
    queryKey: TERMINALS_KEY,
    queryFn: async () => (await get(TerminalListResponseSchema, '/api/terminals')).terminals,
    retry: false,
  });
}

export function useTerminalStatus() {
  return useQuery({ queryKey: STATUS_KEY, queryFn: () => get(TerminalStatusSchema, '/api/terminals/status'), retry: false });
}

export function useTerminalMutations() {
  const qc = useQueryClient();
  const refresh = () => qc.invalidateQueries({ queryKey: ['terminals'] });
  return {
    setEnabled: useMutation({
      mutationFn: async ({ id, enabled }: { id: string; enabled: boolean }) =>
        (await put(TerminalResponseSchema, `/api/terminals/${encodeURIComponent(id)}`, { enabled })).terminal,
      onSuccess: refresh,
    }),
    setPdv: useMutation({
      mutationFn: async (id: string) => (await post(TerminalResponseSchema, `/api/terminals/${encodeURIComponent(id)}/pdv-mode`)).terminal,
      onSuccess: refresh,
    }),
  };
}

/** The $5.00 test charge: started once, then followed live with polling as a fallback. */
export function useTestCharge(id: string | null) {
  const query = useQuery({
    queryKey: ['terminals', 'test-charge', id],
    queryFn: async () => (await get(TestChargeResponseSchema, `/api/terminals/test-charge/${id}`)).test,
    enabled: Boolean(id),
    refetchInterval: (q) => (q.state.data?.state === 'testing' ? 2000 : false),
  });
  useLiveTopics(id ? ['terminals'] : [], (e) => {
    if (e.type === 'terminal.test-charge' && e.id === id) void query.refetch();
  });
  return query;
}

export function useStartTestCharge() {
  return useMutation({
    mutationFn: async (terminalId: string) => (await post(TestChargeResponseSchema, '/api/terminals/test-charge', { terminalId })).test,
  });
}
