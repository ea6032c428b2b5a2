export const BAR_TABLE_NUMBER = 0;

/** Printed on tickets and searched by staff: short enough to read aloud. */
export function ticketNumber(id: string): string {
  return id.slice(0, 6).toUpperCase();
}

/** Order screens show the end of the id, which differs even between orders created together. */
export function shortOrderId(id: string): string {
  return id.slice(-8);
}

/** Whole minutes since `from`; a clock running behind on some device never shows negatives. */
export function elapsedMinutes(from: Date, now: Date): number {
  const minutes = Math.floor((now.getTime() - from.getTime()) / 60_000);
  return Number.isFinite(minutes) && minutes > 0 ? minutes : 0;
}

export function isBarTable(number: number): boolean {
  return number === BAR_TABLE_NUMBER;
}

export function tableLabel(number: number): string {
  return isBarTable(number) ? 'Barra' : `Mesa ${number}`;
}

/** The bar first, then tables in ascending order. */
export function compareTables(a: { number: number }, b: { number: number }): number {
  if (isBarTable(a.number) !== isBarTable(b.number)) return isBarTable(a.number) ? -1 : 1;
  return a.number - b.number;
}
