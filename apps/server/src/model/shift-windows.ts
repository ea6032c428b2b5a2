import { addDays, defaultShiftDate, shiftWindow, zonedToUtc } from '@comanda/domain';
import type { AppContext } from '../http/context.ts';
import { getGeneralConfig } from './config-store.ts';

/** [start, end) in epoch ms. */
export interface Interval {
  start: number;
  end: number;
}

export interface ShiftSettings {
  timezone: string;
  shiftStartHour: number;
  shiftEndHour: number;
}

export function shiftInterval(date: string, s: ShiftSettings): Interval {
  const w = shiftWindow(date, s.timezone, s.shiftStartHour, s.shiftEndHour);
  return { start: w.start.getTime(), end: w.end.getTime() };
}

/** The business calendar day: local midnight to the next local midnight. */
export function businessDay(date: string, timezone: string): Interval {
  return { start: zonedToUtc(date, 0, 0, timezone).getTime(), end: zonedToUtc(addDays(date, 1), 0, 0, timezone).getTime() };
}

/** `from` minus every interval of `cut`; what is left, in order. */
export function subtract(from: Interval, cut: Interval[]): Interval[] {
  let pieces: Interval[] = [from];
  for (const c of cut) {
    pieces = pieces.flatMap((p) => {
      if (c.end <= p.start || c.start >= p.end) return [p];
      const left = { start: p.start, end: Math.min(p.end, c.start) };
      const right = { start: Math.max(p.start, c.end), end: p.end };
      return [left, right].filter((x) => x.end > x.start);
    });
  }
  return pieces;
}

/**
 * The parts of a business day that no shift covers (03:00–17:00 by default). A shift
 * started the evening before reaches into the morning, so the neighbouring days' windows
 * are cut out too: paid orders in what remains belong to no cash close and are reported.
 */
export function outsideShiftIntervals(date: string, s: ShiftSettings): Interval[] {
  const windows = [-1, 0, 1].map((d) => shiftInterval(addDays(date, d), s));
  return subtract(businessDay(date, s.timezone), windows);
}

/** The business's shift settings and the date asked for, or the default one (SPEC §9) computed here. */
export async function resolveShift(ctx: AppContext, date: string | undefined): Promise<ShiftSettings & { date: string }> {
  const { timezone, shiftStartHour, shiftEndHour } = await getGeneralConfig(ctx.db.db, ctx.config.BUSINESS_TIMEZONE);
  return { timezone, shiftStartHour, shiftEndHour, date: date ?? defaultShiftDate(new Date(ctx.clock.now()), timezone, shiftStartHour) };
}
