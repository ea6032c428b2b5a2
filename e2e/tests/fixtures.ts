import dns from 'node:dns';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import type { AxeResults, default as Axe } from 'axe-core';
import { test as base, expect, request, type APIRequestContext, type Page, type Browser, type BrowserContext } from '@playwright/test';
import { baseURL, LAN_HOST } from '../playwright.config.ts';

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

/** Where the specs' screenshots go: the project's screenshots folder, to open and judge. */
export const SHOTS = fileURLToPath(new URL('../../screenshots', import.meta.url));

/** The specs' server runs on PostgreSQL (E2E_DATABASE_URL, on demand) instead of its SQLite file. */
export const ON_POSTGRES = Boolean(process.env.E2E_DATABASE_URL);

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

/** Signs in through the real login form: a demo account, or any e-mail and password (e.g. a user a spec created). */
export async function login(page: Page, who: AccountKey | { email: string; password: string }): Promise<void> {
  const { email, password } = typeof who === 'string' ? { email: ACCOUNTS[who].email, password: PASSWORD } : who;
  await page.goto('/login');
  await page.getByLabel('Correo electrónico').fill(email);
  await page.getByLabel('Contraseña').fill(password);
  await page.getByRole('button', { name: 'Entrar' }).click();
  await expect(page).not.toHaveURL(/\/login/);
}

/** Where each demo account lands after signing in. */
const HOMES: Record<AccountKey, string> = {
  admin: '/admin/home',
  waiter: '/waiter/home',
  waiter2: '/waiter/home',
  kitchen: '/kitchen/cocina',
  barra: '/kitchen/barra',
};

/**
 * Signs in through the API (the page's cookies) and, unless `open` is false, opens the account's
 * home. The form itself is tested by auth.spec and by every spec that calls login(); skipping it
 * for a spec's cast saves loading the login screen once per person.
 */
async function signInByApi(page: Page, who: AccountKey, open = true): Promise<void> {
  await signIn(page.request, who);
  if (open) {
    await page.goto(HOMES[who]);
    await expect(page).toHaveURL(new RegExp(`${HOMES[who]}$`));
  }
}

/**
 * Someone's API, signed in from the test process: no browser context, page or renderer, for set-up
 * calls. Dispose of it when done.
 */
export async function signedInRequest(who: AccountKey): Promise<APIRequestContext> {
  const api = await request.newContext({ baseURL });
  await signIn(api, who);
  return api;
}

/** The demo account's sign-in through the API: its session cookie stays with `api`. */
async function signIn(api: APIRequestContext, who: AccountKey): Promise<void> {
  const res = await api.post('/api/auth/login', { data: { email: ACCOUNTS[who].email, password: PASSWORD } });
  expect(res.ok(), await res.text()).toBeTruthy();
}

/** A separate browser (its own cookies) signed in as someone at their home screen, e.g. the kitchen next to a waiter. */
export async function signedInContext(
  browser: Browser,
  who: AccountKey,
  viewport: { width: number; height: number } = ADMIN,
  open = true,
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport, locale: 'es-MX', timezoneId: 'America/Mexico_City' });
  const page = await context.newPage();
  await signInByApi(page, who, open);
  return { context, page };
}

/** A table as GET /api/tables lists it (the fields the specs read). */
export interface TableDto {
  id: string;
  number: number;
  status: string;
  currentOrderId: string | null;
}

/** Table n, added by the admin when it is not there yet (a spec owns its numbers); its row as listed. */
export async function ensureTable(admin: APIRequestContext, n: number): Promise<TableDto> {
  const created = await admin.post('/api/tables', { data: { number: n } });
  expect([200, 409], await created.text()).toContain(created.status());
  const { tables } = (await (await admin.get('/api/tables')).json()) as { tables: TableDto[] };
  const table = tables.find((t) => t.number === n);
  expect(table, `table ${n}`).toBeTruthy();
  return table!;
}

/** An order as the orders routes answer it (the fields the specs read). */
export interface OrderDto {
  id: string;
  items: { id: string; productName: string }[];
}

/** A line to order: product name and quantity. */
export type Line = [name: string, quantity: number];

/**
 * Setting up service through the API, as whoever `request` is signed in as (page.request of a
 * signed-in page). Tables are added through the admin API when missing (the spec's own numbers).
 */
export interface Api {
  /** Table n, added through the admin API first when this database does not have it yet. */
  tableByNumber(n: number): Promise<TableDto>;
  /** Orders the named products on an open order; returns the order as it stands after the last one. */
  addItems<O extends OrderDto = OrderDto>(request: APIRequestContext, order: O, lines: Line[]): Promise<O>;
  /** Opens table n (added when missing) as the user of `request` and orders the named products. */
  openTable<O extends OrderDto = OrderDto>(request: APIRequestContext, n: number, lines: Line[]): Promise<O>;
  /** Marks every item of the order delivered (`request` must be allowed to: admin, or the item's station). */
  deliverAll(request: APIRequestContext, order: { id: string; items: { id: string }[] }): Promise<void>;
}

async function listTables(request: APIRequestContext): Promise<TableDto[]> {
  const res = await request.get('/api/tables');
  expect(res.ok(), await res.text()).toBeTruthy();
  return ((await res.json()) as { tables: TableDto[] }).tables;
}

function apiFor(admin: () => Promise<APIRequestContext>): Api {
  const api: Api = {
    async tableByNumber(n) {
      const request = await admin();
      let table = (await listTables(request)).find((t) => t.number === n);
      if (!table) {
        const created = await request.post('/api/tables', { data: { number: n } });
        expect([200, 201, 409], await created.text()).toContain(created.status());
        table = (await listTables(request)).find((t) => t.number === n);
      }
      if (!table) throw new Error(`no table ${n}`);
      return table;
    },
    async addItems<O extends OrderDto>(request: APIRequestContext, order: O, lines: Line[]): Promise<O> {
      const listed = await request.get('/api/products?available=1');
      const { products } = (await listed.json()) as { products: { id: string; name: string }[] };
      let current = order;
      for (const [name, quantity] of lines) {
        const product = products.find((p) => p.name === name);
        if (!product) throw new Error(`no product ${name}`);
        const added = await request.post(`/api/orders/${order.id}/items`, { data: { productId: product.id, quantity } });
        expect(added.ok(), await added.text()).toBeTruthy();
        current = ((await added.json()) as { order: O }).order;
      }
      return current;
    },
    async openTable<O extends OrderDto>(request: APIRequestContext, n: number, lines: Line[]): Promise<O> {
      const table = await api.tableByNumber(n);
      const opened = await request.post(`/api/tables/${table.id}/open`);
      expect(opened.ok(), await opened.text()).toBeTruthy();
      return api.addItems(request, ((await opened.json()) as { order: O }).order, lines);
    },
    async deliverAll(request, order) {
      for (const item of order.items) {
        const res = await request.patch(`/api/orders/${order.id}/items/${item.id}/status`, { data: { status: 'entregado' } });
        expect(res.ok(), await res.text()).toBeTruthy();
      }
    },
  };
  return api;
}

/**
 * Counts window.print calls instead of opening the print dialog (which a headless browser never
 * closes), on this page now and after any reload; `printCount` reads the count.
 */
export async function stubPrint(page: Page): Promise<void> {
  const stub = () => {
    const w = window as unknown as { __prints: number };
    w.__prints = 0;
    window.print = () => {
      w.__prints += 1;
    };
  };
  await page.addInitScript(stub);
  await page.evaluate(stub);
}
export const printCount = (page: Page) => page.evaluate(() => (window as unknown as { __prints: number }).__prints);

/** Types a PIN on the open dialog's keypad: four digits verify by themselves, a shorter one asks Verificar. */
export async function enterPin(page: Page, pin: string): Promise<void> {
  const dialog = page.getByRole('dialog');
  for (const digit of pin) await dialog.getByRole('button', { name: digit, exact: true }).click();
  if (pin.length < 4) await dialog.getByRole('button', { name: 'Verificar' }).click();
}

export interface Fixtures {
  /** The admin, signed in on a laptop (1440×900) in a context of its own, closed after the test. */
  adminPage: Page;
  /** The waiter (Mario), signed in on a phone (390×844) in a context of its own, closed after the test. */
  waiterPage: Page;
  /** The kitchen, signed in on the board tablet (1024×768) in a context of its own, closed after the test. */
  kitchenPage: Page;
  /** The bar (Beto), signed in on the board tablet (1024×768) in a context of its own, closed after the test. */
  barPage: Page;
  /** The admin's API alone, for a test that needs no admin screen. */
  adminApi: APIRequestContext;
  /** The waiter's (Mario's) API alone, for a test that needs no waiter screen. */
  waiterApi: APIRequestContext;
  /** API set-up helpers; tables are added as the admin (signed in only when needed). */
  api: Api;
}

function signedInApi(who: AccountKey) {
  // Playwright reads a fixture's first parameter as the fixtures it needs: none.
  // eslint-disable-next-line no-empty-pattern
  return async ({}, use: (api: APIRequestContext) => Promise<void>) => {
    const api = await signedInRequest(who);
    try {
      await use(api);
    } finally {
      await api.dispose();
    }
  };
}

function signedInPage(who: AccountKey, viewport: { width: number; height: number }) {
  return async ({ browser }: { browser: Browser }, use: (page: Page) => Promise<void>) => {
    const { context, page } = await signedInContext(browser, who, viewport);
    try {
      await use(page);
    } finally {
      await context.close();
    }
  };
}

export const test = base.extend<Fixtures>({
  adminPage: signedInPage('admin', ADMIN),
  waiterPage: signedInPage('waiter', MOBILE),
  kitchenPage: signedInPage('kitchen', BOARD),
  barPage: signedInPage('barra', BOARD),
  adminApi: signedInApi('admin'),
  waiterApi: signedInApi('waiter'),
  // eslint-disable-next-line no-empty-pattern
  api: async ({}, use) => {
    let admin: APIRequestContext | undefined;
    const adminRequest = async () => (admin ??= await signedInRequest('admin'));
    try {
      await use(apiFor(adminRequest));
    } finally {
      await admin?.dispose();
    }
  },
});
export { expect };

/** The order screen's product picker (issue #17 reshaped it: one tap adds a simple product). */
export const pickerDialog = (page: Page) => page.getByRole('dialog', { name: 'Agregar productos' });
/** The picker's product list (the "Más vendidos" row and "Esta ronda" name products too). */
export const pickerList = (page: Page) => pickerDialog(page).getByRole('list', { name: 'Elige un producto' });

/**
 * Adds a product through the picker's quantity and notes step (the "Nota" button of its row),
 * optionally after a search or a category chip; waits for the "agregado" notice.
 */
export async function addInPicker(
  page: Page,
  line: { name: string; search?: string; category?: string; quantity?: number; notes?: string; expectAdded?: boolean },
): Promise<void> {
  const dialog = pickerDialog(page);
  if (line.search !== undefined) await dialog.getByRole('searchbox', { name: 'Buscar producto...' }).fill(line.search);
  if (line.category) await dialog.getByRole('button', { name: line.category, exact: true }).click();
  await dialog.getByRole('button', { name: `Nota o cantidad para ${line.name}`, exact: true }).click();
  for (let i = 1; i < (line.quantity ?? 1); i++) await dialog.getByRole('button', { name: 'Aumentar' }).click();
  if (line.notes) await dialog.getByLabel('Notas (opcional)').fill(line.notes);
  await dialog.getByRole('button', { name: /^Agregar · / }).click();
  if (line.expectAdded !== false) await expect(page.getByText(`${line.name} agregado`)).toBeVisible();
}

/** One tap per unit on a simple product's row of the picker list (taps in a row go as one line). */
export async function tapInPicker(page: Page, name: string, times = 1): Promise<void> {
  const row = pickerList(page).getByRole('button', { name: new RegExp(`^${name.replace(/[()]/g, '\\$&')}`) });
  for (let i = 0; i < times; i++) await row.click();
}

const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];
/**
 * axe-core's minified build, put in the page once per document (a screen reached inside the app
 * keeps it) and run there for violations only: the page-per-scan wrapper compiled it twice per scan
 * and sent back every passing element too (about 40 % of each scan's time).
 */
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** The WCAG 2.1 A/AA violations axe finds in the page as it stands. */
async function axeViolations(page: Page): Promise<AxeResults['violations']> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE_SOURCE);
  return page.evaluate(async (tags) => {
    const { axe } = window as unknown as { axe: typeof Axe };
    const results = await axe.run(document, { runOnly: { type: 'tag', values: tags }, resultTypes: ['violations'] });
    return results.violations;
  }, AXE_TAGS);
}
/** An element axe faults: its selector and the first line of what fails ('Element has insufficient color contrast…'). */
const failingNode = (n: { target: unknown[]; failureSummary?: string }) =>
  `${n.target.join(' ')} ${n.failureSummary?.split('\n')[1]?.trim() ?? ''}`;

/**
 * An axe scan of the screen as it stands against WCAG 2.1 A/AA: no serious or critical violation
 * (a soft check, named by the screen; each violation names its rule, its elements and what fails).
 */
export async function expectNoSeriousViolations(page: Page, screen: string): Promise<void> {
  // A toast or a dialog still fading in has the contrast of its half-way opacity: scan once every
  // finite animation and transition has ended (spinners and pulses run forever and are skipped),
  // every toast has mounted (its fade starts only then) and none is on its way out; then a frame
  // later once more, as that state may be met in the frame before a transition starts.
  const still = () =>
    page
      .waitForFunction(
        () =>
          Array.from(document.querySelectorAll<HTMLElement>('[data-sonner-toast]')).every(
            (t) => t.dataset.mounted === 'true' && t.dataset.removed !== 'true',
          ) && document.getAnimations().every((a) => a.playState !== 'running' || a.effect?.getTiming().iterations === Infinity),
        undefined,
        { timeout: 3_000 },
      )
      .catch(() => undefined);
  const scan = async () => {
    await page.waitForTimeout(100);
    await still();
    await page.waitForTimeout(50);
    await still();
    return (await axeViolations(page))
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.id} (${v.impact}): ${v.nodes.map(failingNode).join(' | ')}`);
  };
  let serious = await scan();
  // A toast that arrived while axe ran is caught mid-fade; a real defect is still there a moment later.
  if (serious.length) serious = await scan();
  expect.soft(serious, `${screen}:\n${serious.join('\n')}`).toEqual([]);
}

/**
 * Runs `fn` while the business's shift holds the present moment, then restores the hours. Between
 * shifts (03:00–17:00 by default) a sale just made belongs to no cash close, so a check of the
 * close that runs then widens the shift to the 24 hours starting two hours ago. `fn` receives
 * the shift's date, the one the cash close shows by default.
 */
export async function withShiftHoldingNow<T>(admin: APIRequestContext, fn: (shiftDate: string) => Promise<T>): Promise<T> {
  const general = (await (await admin.get('/api/config/general')).json()) as Record<string, unknown> & {
    shiftStartHour: number;
    shiftEndHour: number;
  };
  const tz = 'America/Mexico_City';
  const now = new Date();
  const hour = Number(new Intl.DateTimeFormat('en-US', { timeZone: tz, hour: 'numeric', hourCycle: 'h23' }).format(now));
  const { shiftStartHour: start, shiftEndHour: end } = general;
  const inShift = start > end ? hour >= start || hour < end : start === end || (hour >= start && hour < end);
  const setShift = async (shiftStartHour: number, shiftEndHour: number) => {
    const { name, logoUrl, address, phone } = general;
    const res = await admin.put('/api/config/general', { data: { name, logoUrl, address, phone, shiftStartHour, shiftEndHour } });
    expect(res.ok(), await res.text()).toBeTruthy();
  };
  const startHour = inShift ? start : (hour + 22) % 24;
  if (!inShift) await setShift(startHour, startHour);
  try {
    // Before the start hour the shift began on the previous calendar day.
    const day = new Date(now.getTime() - (hour < startHour ? 24 * 3600_000 : 0));
    return await fn(new Intl.DateTimeFormat('en-CA', { timeZone: tz }).format(day));
  } finally {
    if (!inShift) await setShift(start, end);
  }
}
