import type { QueryClient } from '@tanstack/react-query';
import type { CurrentSharedDevice, GeneralConfig, SessionUser, Table } from '@comanda/contract';
import { CONFIG_KEYS } from './config.ts';
import { SHARED_DEVICE_KEY } from './shared-device.ts';

/** The tables list's query key (features/tables/tables-api.ts re-exports it). */
export const TABLES_KEY = ['tables'] as const;
/** The data block the server adds to the first visit's HTML (apps/server/src/http/boot.ts). */
export const BOOT_ELEMENT_ID = 'comanda-boot';

export interface BootData {
  user: SessionUser;
  tables?: Table[];
  /** `/api/config/general` as it answered, where the role's layout shows it. */
  generalConfig?: GeneralConfig;
  /** `/api/shared-devices/current` as it answered. */
  sharedDevice?: CurrentSharedDevice;
}

/**
 * Reads the first visit's data (the signed-in user, the shared-device state, the business
 * information and, on a tables home, the tables) once, and removes it from the page, so the
 * cache starts where a first `/api/auth/me`, `/api/shared-devices/current`,
 * `/api/config/general` and `/api/tables` would have left it. Without the block (signed out,
 * or the service worker's shell) nothing happens and the queries fetch as usual.
 */
export function takeBootData(doc: Document = document): BootData | null {
  const element = doc.getElementById(BOOT_ELEMENT_ID);
  if (!element) return null;
  element.remove();
  try {
    const data = JSON.parse(element.textContent ?? '') as BootData;
    return data && typeof data === 'object' && data.user ? data : null;
  } catch {
    return null;
  }
}

export function seedQueryCache(client: QueryClient, boot: BootData | null, sessionKey: readonly unknown[]): void {
  if (!boot) return;
  client.setQueryData(sessionKey, boot.user);
  if (boot.tables) client.setQueryData(TABLES_KEY, boot.tables);
  if (boot.generalConfig) client.setQueryData(CONFIG_KEYS.general, boot.generalConfig);
  if (boot.sharedDevice) client.setQueryData(SHARED_DEVICE_KEY, boot.sharedDevice);
}
