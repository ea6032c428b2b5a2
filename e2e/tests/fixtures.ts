import { test as base, expect, type Page, type Browser, type BrowserContext } from '@playwright/test';

export const PASSWORD = 'comanda123';
export const ACCOUNTS = {
  admin: { email: 'admin@comanda.mx', pin: '1234', name: 'Ana Administradora' },
  waiter: { email: 'mesero@comanda.mx', pin: '1111', name: 'Mario Mesero' },
  waiter2: { email: 'mesera@comanda.mx', pin: '2222', name: 'Lucía Mesera' },
  kitchen: { email: 'cocina@comanda.mx', pin: '3333', name: 'Carlos Cocina' },
  barra: { email: 'barra@comanda.mx', pin: '4444', name: 'Beto Barra' },
} as const;
export type AccountKey = keyof typeof ACCOUNTS;

export const MOBILE = { width: 390, height: 844 };

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
  viewport = { width: 1280, height: 800 },
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport, locale: 'es-MX', timezoneId: 'America/Mexico_City' });
  const page = await context.newPage();
  await login(page, who);
  return { context, page };
}

export const test = base;
export { expect };
