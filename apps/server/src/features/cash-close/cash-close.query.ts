import type { CashCloseResponse, OutsideShiftResponse } from '@comanda/contract';
import { OUTSIDE_SHIFT_LIST_MAX } from '@comanda/contract';
import type { AppContext } from '../../http/context.ts';
import { outsideShiftIntervals, resolveShift, shiftInterval } from '../../model/shift-windows.ts';
import { paidTaxes } from '../../model/reports/paid-taxes.ts';
import { shiftSummary } from './summary.query.ts';
import { shiftStatistics } from './statistics.query.ts';
import { outsideShiftTickets, outsideShiftTotals } from './outside.query.ts';

export async function cashCloseReport(ctx: AppContext, date: string | undefined): Promise<CashCloseResponse> {
  const shift = await resolveShift(ctx, date);
  const window = shiftInterval(shift.date, shift);
  const db = ctx.db.db;
  const summary = await shiftSummary(db, window);
  const statistics = await shiftStatistics(db, window, shift.timezone);
  const outsideShift = await outsideShiftTotals(db, outsideShiftIntervals(shift.date, shift));
  const taxes = await paidTaxes(db, window);
  return {
    date: shift.date,
    timezone: shift.timezone,
    shiftStartHour: shift.shiftStartHour,
    shiftEndHour: shift.shiftEndHour,
    window,
    summary,
    statistics,
    outsideShift,
    taxes,
  };
}

export async function outsideShiftReport(ctx: AppContext, date: string | undefined): Promise<OutsideShiftResponse> {
  const shift = await resolveShift(ctx, date);
  const gaps = outsideShiftIntervals(shift.date, shift);
  const totals = await outsideShiftTotals(ctx.db.db, gaps);
  const tickets = await outsideShiftTickets(ctx.db.db, gaps, shift.timezone, OUTSIDE_SHIFT_LIST_MAX);
  return { date: shift.date, ...totals, tickets };
}
