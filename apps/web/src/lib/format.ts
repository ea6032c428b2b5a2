import { formatMXN, type Cents } from '@comanda/domain';

export const money = (c: number): string => formatMXN(c as Cents);

// Dates and times: lib/dates.ts (always in the business time zone).
