import { isHourInShift, localHour } from '@comanda/domain';
import type { ApiClient } from './test-server.ts';

type General = Record<string, unknown> & { shiftStartHour: number; shiftEndHour: number };

/**
 * Runs `fn` while the business's shift holds the present moment, then restores the hours.
 * Between shifts (03:00–17:00 by default) a sale just made belongs to no cash close, so a test
 * of the close that runs then widens the shift to the 24 hours starting two hours ago.
 */
export async function withShiftHoldingNow<T>(admin: ApiClient, fn: () => Promise<T>, tz = 'America/Mexico_City'): Promise<T> {
  const general = (await admin.get<General>('/api/config/general')).body;
  const { shiftStartHour: start, shiftEndHour: end } = general;
  const hour = localHour(new Date(), tz);
  if (isHourInShift(hour, start, end)) return fn();
  const { name, logoUrl, address, phone } = general;
  const put = async (shiftStartHour: number, shiftEndHour: number) => {
    const res = await admin.put('/api/config/general', { name, logoUrl, address, phone, shiftStartHour, shiftEndHour });
    if (res.status !== 200) throw new Error(`shift hours not saved: ${res.status}`);
  };
  const wide = (hour + 22) % 24;
  await put(wide, wide);
  try {
    return await fn();
  } finally {
    await put(start, end);
  }
}
