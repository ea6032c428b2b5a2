import { useEffect, useMemo, useRef, useState } from 'react';
import { useLocation } from 'react-router';
import type { BoardStationFilter } from '@comanda/contract';
import { boardStationsForPath, type Station } from '@comanda/domain';
import { useBoardItems } from '../../lib/board.ts';
import { t } from '../../lib/i18n/es-MX.ts';
import { useSession } from '../../lib/session.ts';
import { useNow } from '../../lib/use-now.ts';
import { categoryCounts, shouldRing, splitColumns, ticketColumns, visibleItems } from './board-model.ts';
import { playNewOrderTone, useSoundPreference } from './sound.ts';
import { useBoardMoves } from './use-board-moves.ts';

const WAITING_REFRESH_MS = 30_000;

function titleFor(stations: readonly Station[]): string {
  if (stations.length > 1) return t.board.titleBoth;
  return stations[0] === 'barra' ? t.board.titleBar : t.board.titleKitchen;
}

/** The board's station (from the path), its items and columns, the new-order sound, and the moves. */
export function useBoardPage() {
  const { pathname } = useLocation();
  const role = useSession().data?.role;
  const stations = useMemo(() => boardStationsForPath(pathname), [pathname]);
  const filter: BoardStationFilter = stations.length > 1 ? 'all' : (stations[0] ?? 'cocina');
  const query = useBoardItems(filter, 'board');
  const deviceNow = useNow(WAITING_REFRESH_MS);
  const now = deviceNow + (query.data?.clockOffsetMs ?? 0);
  const items = useMemo(() => visibleItems(query.data?.items ?? [], stations, now), [query.data, stations, now]);
  // Counts (and the new-order sound) leave out voided lines still shown as CANCELADO.
  const columns = splitColumns(items.filter((i) => !i.cancelled));
  const tickets = useMemo(() => ticketColumns(items), [items]);
  const [soundOn, toggleSound] = useSoundPreference();
  const [rings, setRings] = useState(0);

  // Ring when the pending count rises on this board; never on the first load or a station switch.
  const lastPending = useRef<{ board: string; pending: number } | null>(null);
  const pending = query.data ? columns.pendientes.length : null;
  useEffect(() => {
    if (pending === null) return;
    const current = { board: filter, pending };
    if (shouldRing(lastPending.current, current) && soundOn) {
      playNewOrderTone();
      setRings((n) => n + 1);
    }
    lastPending.current = current;
  }, [filter, pending, soundOn]);

  return {
    role,
    stations,
    title: titleFor(stations),
    query,
    now,
    columns,
    tickets,
    counts: categoryCounts(items, stations),
    soundOn,
    toggleSound,
    rings,
    ...useBoardMoves(),
  };
}

export type BoardPageState = ReturnType<typeof useBoardPage>;
