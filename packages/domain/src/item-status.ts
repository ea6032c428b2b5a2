export const ITEM_STATUSES = ['pendiente', 'en_preparacion', 'listo', 'entregado'] as const;
export type ItemStatus = (typeof ITEM_STATUSES)[number];

/** The kitchen board and admin panel skip en_preparacion (SPEC §3). */
export const BOARD_STATUSES = ['pendiente', 'listo', 'entregado'] as const;
export type BoardStatus = (typeof BOARD_STATUSES)[number];

export const INITIAL_ITEM_STATUS: ItemStatus = 'pendiente';

export const ITEM_STATUS_LABELS: Record<ItemStatus, string> = {
  pendiente: 'Pendiente',
  en_preparacion: 'En preparación',
  listo: 'Listo',
  entregado: 'Entregado',
};

export function isItemStatus(s: unknown): s is ItemStatus {
  return typeof s === 'string' && (ITEM_STATUSES as readonly string[]).includes(s);
}

/** The single forward step a board button offers ('Marcar Listo', 'Marcar Entregado'). */
export function nextBoardStatus(s: ItemStatus): ItemStatus | null {
  switch (s) {
    case 'pendiente':
    case 'en_preparacion':
      return 'listo';
    case 'listo':
      return 'entregado';
    case 'entregado':
      return null;
  }
}

/** Any board status but the current one: moving backwards is allowed on purpose (SPEC §4). */
export function panelStatusOptions(current: ItemStatus): BoardStatus[] {
  return BOARD_STATUSES.filter((s) => s !== current);
}

export function progressPercent(s: ItemStatus): 33 | 67 | 100 {
  switch (s) {
    case 'pendiente':
    case 'en_preparacion':
      return 33;
    case 'listo':
      return 67;
    case 'entregado':
      return 100;
  }
}

export type BoardColumn = 'pendientes' | 'listos' | 'entregados';
export const BOARD_COLUMNS = ['pendientes', 'listos', 'entregados'] as const;

export function boardColumn(s: ItemStatus): BoardColumn {
  switch (s) {
    case 'pendiente':
    case 'en_preparacion':
      return 'pendientes';
    case 'listo':
      return 'listos';
    case 'entregado':
      return 'entregados';
  }
}

export const DELIVERED_RETENTION_MS = 30 * 60 * 1000;

/**
 * Delivered items linger so the floor can see what just went out, then leave
 * ('Entregados: últimos 30 min'). At exactly 30 minutes the item is gone.
 */
export function isShownOnBoard(item: { status: ItemStatus; updatedAt: Date; isDeleted?: boolean }, now: Date): boolean {
  if (item.isDeleted === true) return false;
  if (item.status !== 'entregado') return true;
  return now.getTime() - item.updatedAt.getTime() < DELIVERED_RETENTION_MS;
}

/** Board order: oldest first, so the longest-waiting item is on top. */
export function compareByCreatedAt(a: { createdAt: Date }, b: { createdAt: Date }): number {
  return a.createdAt.getTime() - b.createdAt.getTime();
}
