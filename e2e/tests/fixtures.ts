import dns from 'node:dns';
import { test as base, expect, type Page, type Browser, type BrowserContext } from '@playwright/test';
import { LAN_HOST } from '../playwright.config.ts';

/**
 * The browser reaches the app by its LAN name (Chromium maps it to loopback). API calls made
 * from the test process (page.request, sharing the browser's cookies for that name) resolve it
 * through Node, so the same mapping is taught to Node here: loopback only, nothing leaves the machine.
 */
const realLookup = dns.promises.lookup.bind(dns.promises);
dns.promises.lookup = ((hostname: string, options?: dns.LookupOptions) => {
  if (hostname !== LAN_HOST) return realLookup(hostname, options ?? {});
  const v4 = { address: '127.0.0.1', family: 4 };
  if (options?.all) return Promise.resolve(options.family === 6 ? [] : [v4]);
  return Promise.resolve(v4);
}) as typeof dns.promises.lookup;

export const PASSWORD = 'comanda123';
export const ACCOUNTS = {
  admin: { email: 'admin@comanda.mx', pin: '1234', name: 'Ana Administradora' },
  waiter: { email: 'mesero@comanda.mx', pin: '1111', name: 'Mario Mesero' },
  waiter2: { email: 'mesera@comanda.mx', pin: '2222', name: 'Lucía Mesera' },
  kitchen: { email: 'cocina@comanda.mx', pin: '3333', name: 'Carlos Cocina' },
  barra: { email: 'barra@comanda.mx', pin: '4444', name: 'Beto Barra' },
} as const;
export type AccountKey = keyof typeof ACCOUNTS;

/** The screens people use: a waiter's phone, the kitchen/bar board tablet, the admin's laptop. */
export const MOBILE = { width: 390, height: 844 };
export const BOARD = { width: 1024, height: 768 };
export const ADMIN = { width: 1440, height: 900 };

/** Signs in through the real login form. */
export async function login(page: Page, who: AccountKey): Promise<void> {
  await page.goto('/login');
  await page.getByLabel('Correo electrónico').fill(ACCOUNTS[who].email);
  await page.getByLabel('Contraseña').fill(PASSWORD);
  await page.getByRole('button', { name: 'Entrar' }).click();
  await expect(page).not.toHaveURL(/\/login/);
}

/** A separate browser (its own cookies) signed in as someone, e.g. the kitchen next to a waiter. */
export async function signedInContext(
  browser: Browser,
  who: AccountKey,
  viewport: { width: number; height: number } = ADMIN,
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport, locale: 'es-MX', timezoneId: 'America/Mexico_City' });
  const page = await context.newPage();
  await login(page, who);
  return { context, page };
}

export const test = base;
export { expect };
