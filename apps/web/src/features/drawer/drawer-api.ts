import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  Corte,
  CorteZBody,
  DenominationCountInput,
  DrawerMovementBody,
  DrawerMovementView,
  DrawerStateResponse,
} from '@comanda/contract';
import { get, post } from '../../lib/api.ts';
import { useLiveQueries } from '../../lib/use-live.ts';

export const DRAWER_KEY = ['drawer'] as const;

export function useDrawer() {
  useLiveQueries(['drawer'], [DRAWER_KEY]);
  return useQuery({ queryKey: DRAWER_KEY, queryFn: () => get<DrawerStateResponse>('/api/drawer') });
}

function useDrawerMutation<I, O>(fn: (input: I) => Promise<O>) {
  const qc = useQueryClient();
  return useMutation({ mutationFn: fn, onSuccess: () => void qc.invalidateQueries({ queryKey: DRAWER_KEY }) });
}

export const useOpenDrawer = () => useDrawerMutation((count: DenominationCountInput) => post<unknown>('/api/drawer/open', { count }));

export const useAddMovement = () =>
  useDrawerMutation(
    async (body: DrawerMovementBody) => (await post<{ movement: DrawerMovementView }>('/api/drawer/movements', body)).movement,
  );

export const fetchCorteX = async (sessionId: string) => (await get<{ corte: Corte }>(`/api/drawer/sessions/${sessionId}`)).corte;

export const useCorteZ = () =>
  useDrawerMutation(
    async ({ sessionId, body }: { sessionId: string; body: CorteZBody }) =>
      (await post<{ corte: Corte }>(`/api/drawer/sessions/${sessionId}/corte-z`, body)).corte,
  );
