import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  type BoardItem,
  type BoardStationFilter,
  type ItemStatusBody,
  BoardResponseSchema,
  ItemStatusResponseSchema,
} from '@comanda/contract';
import type { ItemStatus } from '@comanda/domain';
import { boardTopic, patchBoardFromEvent } from '@comanda/contract';
import { get, patch } from './api.ts';
import { useLivePatchedQuery } from './use-live.ts';

/** Shared by the kitchen/bar board and the admin order panel (features do not import each other). */
export type BoardView = 'board' | 'panel';
export const BOARD_KEY = ['board'] as const;
export const boardKey = (station: BoardStationFilter, view: BoardView) => ['board', station, view] as const;

export interface BoardData {
  items: BoardItem[];
  /** Server clock minus this device's clock when the answer arrived: minutes are counted in server time. */
  clockOffsetMs: number;
}

/**
 * Items of the active orders, kept current from the server's board events: an event that carries
 * its lines (an add, a status, a delete, a delivery, a close) is patched in; any other is read again.
 */
export function useBoardItems(station: BoardStationFilter, view: BoardView) {
  const key = boardKey(station, view);
  // A station's board hears only its station: a beer does not refetch the kitchen.
  useLivePatchedQuery<'board' | 'board:cocina' | 'board:barra', BoardData>(
    [station === 'all' ? 'board' : boardTopic(station)],
    key,
    (cached, event) => {
      const items = patchBoardFromEvent(cached?.items, event.board, station);
      if (!cached || !items) return null;
      return items === cached.items ? cached : { ...cached, items };
    },
  );
  return useQuery({
    queryKey: key,
    queryFn: async (): Promise<BoardData> => {
      const res = await get(BoardResponseSchema, `/api/board?station=${station}&view=${view}`);
      return { items: res.items, clockOffsetMs: res.now - Date.now() };
    },
    staleTime: 5_000,
  });
}

interface StatusChange {
  item: Pick<BoardItem, 'id' | 'orderId'>;
  status: ItemStatus;
}

/**
 * Sets an item's status and shows it at once on every cached board; a refused change is rolled
 * back and the caller shows its own message (board and panel use different texts).
 */
export function useSetItemStatus(onError: (error: unknown) => void) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ item, status }: StatusChange) =>
      patch(ItemStatusResponseSchema, `/api/orders/${item.orderId}/items/${item.id}/status`, { status } satisfies ItemStatusBody),
    onMutate: async ({ item, status }) => {
      await qc.cancelQueries({ queryKey: BOARD_KEY });
      const previous = qc.getQueriesData<BoardData>({ queryKey: BOARD_KEY });
      const at = Date.now();
      qc.setQueriesData<BoardData>(
        { queryKey: BOARD_KEY },
        (data) =>
          data && { ...data, items: data.items.map((i) => (i.id === item.id ? { ...i, status, updatedAt: at + data.clockOffsetMs } : i)) },
      );
      return { previous };
    },
    // The server's time for the line, unless a newer change from elsewhere already replaced ours;
    // the other boards learn it from the event, so nothing is read again.
    onSuccess: ({ item: saved }, { item, status }) =>
      qc.setQueriesData<BoardData>(
        { queryKey: BOARD_KEY },
        (data) =>
          data && {
            ...data,
            items: data.items.map((i) =>
              i.id === item.id && i.status === status ? { ...i, status: saved.status, updatedAt: saved.updatedAt } : i,
            ),
          },
      ),
    onError: (error, _vars, context) => {
      for (const [key, data] of context?.previous ?? []) qc.setQueryData(key, data);
      // The failure is logged and reported without blocking the screen (SPEC §8).
      console.error('item status update failed', error);
      onError(error);
      void qc.invalidateQueries({ queryKey: BOARD_KEY });
    },
  });
}
