import { money } from '../../lib/format.ts';

const compact = new Intl.NumberFormat('es-MX', { style: 'currency', currency: 'MXN', notation: 'compact', maximumFractionDigits: 1 });

/** Bar labels where a full amount does not fit: '$1.2 mil' from a thousand pesos up, exact below. */
export const compactMoney = (cents: number): string => (cents >= 100_000 ? compact.format(cents / 100) : money(cents));

export const hourLabel = (hour: number): string => `${String(hour).padStart(2, '0')}:00`;

export const percent = (part: number, whole: number): number => (whole > 0 ? Math.round((part / whole) * 1000) / 10 : 0);
