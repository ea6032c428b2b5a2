export const CATEGORIES = ['Entrada', 'Comida', 'Postre', 'Bebida', 'Botella', 'Shot', 'Servicio'] as const;
export type Category = (typeof CATEGORIES)[number];
export const DEFAULT_CATEGORY: Category = 'Comida';

export const STATION_KEYS = ['cocina', 'barra'] as const;
export type Station = (typeof STATION_KEYS)[number];

/** The categories the bar prepares, lower case (stationOf trims and lower-cases before it looks). */
export const BAR_CATEGORIES: ReadonlySet<string> = new Set(['bebida', 'botella', 'shot', 'servicio']);

/**
 * Bar categories are listed and everything else, including categories typed in
 * by hand, goes to the kitchen so no item is ever left without a station.
 */
export function stationOf(category: string): Station {
  return BAR_CATEGORIES.has(category.trim().toLowerCase()) ? 'barra' : 'cocina';
}

export interface StationInfo {
  key: Station;
  label: 'Cocina' | 'Barra';
  /** A lucide-react icon name. */
  icon: string;
  color: string;
}

export const STATIONS: Record<Station, StationInfo> = {
  cocina: { key: 'cocina', label: 'Cocina', icon: 'ChefHat', color: '#f97316' },
  barra: { key: 'barra', label: 'Barra', icon: 'Wine', color: '#8b5cf6' },
};

export function categoriesOf(station: Station): Category[] {
  return CATEGORIES.filter((c) => stationOf(c) === station);
}

export function isCategory(s: unknown): s is Category {
  return typeof s === 'string' && (CATEGORIES as readonly string[]).includes(s);
}

/**
 * Which stations a board route shows: '/barra' in the path means bar, '/cocina'
 * kitchen, and the bare admin kanban shows both (SPEC §2).
 */
export function boardStationsForPath(path: string): Station[] {
  if (path.includes('/barra')) return ['barra'];
  if (path.includes('/cocina')) return ['cocina'];
  if (/^\/admin\/kanban\/?$/.test(path)) return ['cocina', 'barra'];
  return ['cocina'];
}

/**
 * Who may move a station's items on the boards: kitchen staff the kitchen's, bar staff the
 * bar's, an admin both. Anyone may look at both boards. Roles are the contract's role names.
 */
export function mayMoveStationItems(role: string | null | undefined, station: Station): boolean {
  return role === 'admin' || (role === 'kitchen' && station === 'cocina') || (role === 'barra' && station === 'barra');
}
