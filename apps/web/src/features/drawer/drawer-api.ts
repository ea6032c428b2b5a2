import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  type Corte,
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
import type { Notify } from '../../lib/notify.ts';

export const DRAWER_KEY = ['drawer'] as const;

export function useDrawer() {
  useLiveQueries(['drawer'], [DRAWER_KEY]);
  return useQuery({ queryKey: DRAWER_KEY, queryFn: () => get(DrawerStateResponseSchema, '/api/drawer') });
}

/** `notify` rides on the mutation: opening or closing the till swaps the card that asked before its answer may arrive. */
function useDrawerMutation<I, O>(fn: (input: I) => Promise<O>, notify: Notify<O> = {}) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSuccess: (answer) => {
      void qc.invalidateQueries({ queryKey: DRAWER_KEY });
      notify.onSuccess?.(answer);
    },
  });
}

export const useOpenDrawer = (notify?: Notify) =>
  useDrawerMutation((count: DenominationCountInput) => post(IGNORED, '/api/drawer/open', { count }), notify);

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

export const useCorteZ = (notify?: Notify<{ corte: Corte; printJobs: number }>) =>
  useDrawerMutation(async ({ sessionId, body }: { sessionId: string; body: CorteZBody }) => {
    const res = await post(CorteResponseSchema, `/api/drawer/sessions/${sessionId}/corte-z`, body);
    return { corte: res.corte, printJobs: res.printJobs ?? 0 };
  }, notify);
