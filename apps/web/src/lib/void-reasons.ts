import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { VoidReasonsSchema } from '@comanda/contract';
import { DEFAULT_VOID_REASONS } from '@comanda/domain';
import { get, put } from './api.ts';
import { useLiveQueries } from './use-live.ts';

export const VOID_REASONS_KEY = ['config', 'void-reasons'] as const;

/** The reasons a void or cancellation may give (Configuración), kept current by the config topic. */
export function useVoidReasons() {
  useLiveQueries(['config'], [VOID_REASONS_KEY]);
  return useQuery({
    queryKey: VOID_REASONS_KEY,
    queryFn: async () => (await get(VoidReasonsSchema, '/api/config/void-reasons')).reasons,
    placeholderData: [...DEFAULT_VOID_REASONS],
    staleTime: 5 * 60_000,
  });
}

export function useSaveVoidReasons() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (reasons: string[]) => put(VoidReasonsSchema, '/api/config/void-reasons', { reasons }),
    onSuccess: (answer) => qc.setQueryData(VOID_REASONS_KEY, answer.reasons),
  });
}
