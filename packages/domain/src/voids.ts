import type { ItemStatus } from './item-status.ts';

/**
 * Voids, cancelled orders and deliveries from the order screen (see
 * docs/decisions/0016-voids-and-cancellations.md). Pure rules shared by server and web.
 */

/** The reason list a new business starts with; the admin edits it in Configuración. */
export const DEFAULT_VOID_REASONS: readonly string[] = [
  'Error de captura',
  'Cliente cambió de opinión',
  'Producto en mal estado',
  'Tardó demasiado',
  'Otro',
];

export const VOID_REASON_MAX = 60;
export const VOID_REASONS_MAX = 20;
export const VOID_NOTE_MAX = 200;

/** How long a station board keeps showing a voided item as CANCELADO, so the cook stops making it. */
export const VOID_BOARD_RETENTION_MS = 5 * 60 * 1000;

export const VOID_MESSAGES = {
  units: 'Indica cuántas unidades cancelar (entre 1 y la cantidad de la línea)',
  reasonRequired: 'Elige un motivo de cancelación',
  reasonUnknown: 'Ese motivo no está en la lista de motivos de cancelación',
  pinRequired: 'Este producto ya fue preparado: se necesita el PIN de un administrador para cancelarlo',
  notAdminPin: 'PIN válido, pero el usuario no tiene permisos. Solo administradores pueden autorizar cancelaciones.',
  itemVoided: 'Esas unidades ya fueron canceladas',
  unitsLeft: 'La línea ya no tiene tantas unidades para cancelar',
  noLiveItems: 'La orden no tiene productos',
  cancelNeedsPin: 'La orden tiene productos: se necesita el PIN de un administrador y un motivo para cancelarla',
  orderCancelled: 'La orden fue cancelada',
  deliverNotReady: 'Solo se pueden entregar productos listos',
  deliverNothing: 'No hay productos listos para entregar',
  reasonsEmpty: 'La lista de motivos no puede quedar vacía',
  reasonsDuplicate: 'Hay motivos repetidos',
} as const;

/** Items the kitchen or bar already prepared need an admin PIN to be voided; earlier ones do not. */
export function voidNeedsAdminPin(status: ItemStatus): boolean {
  return status === 'listo' || status === 'entregado';
}

/**
 * Voiding `units` of a line of `quantity`: the voided units and the units that stay live.
 * Null when the count is not a whole number between 1 and the line's quantity.
 */
export function splitVoid(quantity: number, units: number): { voided: number; remaining: number } | null {
  if (!Number.isSafeInteger(quantity) || quantity < 1) return null;
  if (!Number.isSafeInteger(units) || units < 1 || units > quantity) return null;
  return { voided: units, remaining: quantity - units };
}

/** The only change a waiter makes to an item's status from the order screen: listo → entregado. */
export function mayDeliver(status: ItemStatus): boolean {
  return status === 'listo';
}

/** The ids "Entregar todo lo listo" sends: live items that are listo. */
export function deliverableIds(items: readonly { id: string; status: ItemStatus; isDeleted: boolean }[]): string[] {
  return items.filter((i) => !i.isDeleted && mayDeliver(i.status)).map((i) => i.id);
}

/** A voided item stays on a board (CANCELADO) for a few minutes unless it was already delivered. */
export function isVoidShownOnBoard(item: { status: ItemStatus; deletedAt: number | null }, now: number): boolean {
  if (item.deletedAt === null || item.status === 'entregado') return false;
  return now - item.deletedAt < VOID_BOARD_RETENTION_MS;
}

/**
 * Cleans an admin-edited reason list: trimmed, no blanks; null when it is empty, too long or
 * repeats a reason (compared without case).
 */
export function normalizeVoidReasons(reasons: readonly string[]): { reasons: string[] } | { error: string } {
  const cleaned = reasons.map((r) => r.trim().replace(/\s+/g, ' ')).filter((r) => r.length > 0);
  if (cleaned.length === 0) return { error: VOID_MESSAGES.reasonsEmpty };
  const seen = new Set(cleaned.map((r) => r.toLocaleLowerCase('es-MX')));
  if (seen.size !== cleaned.length) return { error: VOID_MESSAGES.reasonsDuplicate };
  return { reasons: cleaned };
}
