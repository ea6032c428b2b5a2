import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  type CorteZBody,
  type DenominationCountInput,
  type DrawerMovementBody,
  CorteResponseSchema,
  DrawerMovementResponseSchema,
  DrawerPrintResponseSchema,
  DrawerStateResponseSchema,
} from '@comanda/contract';
import { get, post, IGNORED } from '../../lib/api.ts';
import { useLiveQueries } from '../../lib/use-live.ts';

export const DRAWER_KEY = ['drawer'] as const;

export function useDrawer() {
  useLiveQueries(['drawer'], [DRAWER_KEY]);
  return useQuery({ queryKey: DRAWER_KEY, queryFn: () => get(DrawerStateResponseSchema, '/api/drawer') });
}

function useDrawerMutation<I, O>(fn: (input: I) => Promise<O>) {
  const qc = useQueryClient();
  return useMutation({ mutationFn: fn, onSuccess: () => void qc.invalidateQueries({ queryKey: DRAWER_KEY }) });
}

export const useOpenDrawer = () => useDrawerMutation((count: DenominationCountInput) => post(IGNORED, '/api/drawer/open', { count }));

/** printJobs: slips queued for the caja printer with the change (0: no caja printer, print through the browser). */
export const useAddMovement = () =>
  useDrawerMutation(async (body: DrawerMovementBody) => {
    const res = await post(DrawerMovementResponseSchema, '/api/drawer/movements', body);
    return { movement: res.movement, printJobs: res.printJobs ?? 0 };
  });

/** "Imprimir" on the caja printer: how many jobs were queued (0: no caja printer is set). */
export const printCorteOnCaja = async (sessionId: string) =>
  (await post(DrawerPrintResponseSchema, `/api/drawer/sessions/${sessionId}/print`, {})).jobs;
export const printMovementOnCaja = async (movementId: string) =>
  (await post(DrawerPrintResponseSchema, `/api/drawer/movements/${movementId}/print`, {})).jobs;

export const fetchCorteX = async (sessionId: string) => (await get(CorteResponseSchema, `/api/drawer/sessions/${sessionId}`)).corte;

export const useCorteZ = () =>
  useDrawerMutation(async ({ sessionId, body }: { sessionId: string; body: CorteZBody }) => {
    const res = await post(CorteResponseSchema, `/api/drawer/sessions/${sessionId}/corte-z`, body);
    return { corte: res.corte, printJobs: res.printJobs ?? 0 };
  });
