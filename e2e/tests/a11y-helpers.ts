import type { APIRequestContext, Browser, Page } from '@playwright/test';
import { expect, signedInContext, signedInRequest, ADMIN, ensureTable } from './fixtures.ts';
export { SHOTS } from './fixtures.ts';

/**
 * What the accessibility specs (a11y-*.spec.ts) share: their data set up through the API, the
 * tap-target measure and where their screenshots go. Tables 70–74 and 151–157 belong to them.
 */

export interface OrderDto {
  id: string;
  subtotal: number;
  items: { id: string }[];
}

/**
 * Table n (added by the admin) opened by `waiter` with the given products, reusing an order a retry
 * left open; `deliver` has the admin mark every item delivered so it can be charged.
 */
export async function tableWithItems(
  admin: APIRequestContext,
  waiter: APIRequestContext,
  n: number,
  lines: [string, number][],
  deliver = false,
  notes = 'sin cebolla',
): Promise<{ tableId: string; order: OrderDto }> {
  const tableId = (await ensureTable(admin, n)).id;
  let res = await waiter.post(`/api/tables/${tableId}/open`);
  if (!res.ok()) res = await waiter.get(`/api/tables/${tableId}/order`);
  expect(res.ok(), await res.text()).toBeTruthy();
  let { order } = (await res.json()) as { order: OrderDto };
  const { products } = (await (await waiter.get('/api/products?available=1')).json()) as { products: { id: string; name: string }[] };
  for (const [name, quantity] of lines) {
    const product = products.find((p) => p.name === name)!;
    const added = await waiter.post(`/api/orders/${order.id}/items`, {
      data: { productId: product.id, quantity, ...(notes ? { notes } : {}) },
    });
    expect(added.ok(), await added.text()).toBeTruthy();
    order = ((await added.json()) as { order: OrderDto }).order;
  }
  if (deliver)
    for (const item of order.items)
      expect((await admin.patch(`/api/orders/${order.id}/items/${item.id}/status`, { data: { status: 'entregado' } })).ok()).toBeTruthy();
  return { tableId, order };
}

/** Table n opened by `waiter`, delivered and paid in cash with a 10 % tip: a ticket, a sale in the shift and a tip. */
export async function paidTicket(admin: APIRequestContext, waiter: APIRequestContext, n: number): Promise<void> {
  const paid = await tableWithItems(admin, waiter, n, [['Michelada', 2]], true);
  const closed = await admin.post(`/api/orders/${paid.order.id}/close`, {
    headers: { 'Idempotency-Key': `e2e-a11y-${paid.order.id}` },
    data: { method: 'efectivo', pin: '1234', tipBps: 1000, peopleCount: 1, receivedAmount: paid.order.subtotal * 2 },
  });
  expect(closed.ok(), await closed.text()).toBeTruthy();
}

/**
 * The admin signed in at 1440×900 on its home, after a waiter's ticket on table n was paid with a
 * tip: the reports, the cash close and the tips have a sale in them.
 */
export async function adminAfterPaidTicket(browser: Browser, n: number) {
  const admin = await signedInContext(browser, 'admin', ADMIN);
  const waiter = await signedInRequest('waiter');
  await paidTicket(admin.page.request, waiter, n);
  await waiter.dispose();
  return admin;
}

/** Voids one unit of the order's line `index` (a pending line: a reason is enough), so the screens show a voided line. */
export async function voidOne(waiter: APIRequestContext, order: OrderDto, index: number): Promise<void> {
  const res = await waiter.post(`/api/orders/${order.id}/items/${order.items[index]!.id}/void`, {
    data: { quantity: 1, reason: 'Producto en mal estado', pin: '1234' },
  });
  expect(res.ok(), await res.text()).toBeTruthy();
}

/**
 * Every visible, enabled interactive element is at least 44×44 CSS px, and no two are closer than 8 px
 * (their boxes, grown by 4 px each side, do not overlap) — the WCAG 2.5.5 size and a finger's spacing.
 */
export async function tapTargetProblems(page: Page): Promise<string[]> {
  // At the top, floating buttons (the user menu) may sit over content that scrolls on; at the
  // bottom of the page the space reserved for them must keep the last cards clear of them.
  const atTop = await page.evaluate(measure, false);
  await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
  await page.waitForTimeout(200);
  const atBottom = await page.evaluate(measure, true);
  await page.evaluate(() => window.scrollTo(0, 0));
  return [...new Set([...atTop, ...atBottom])];
}

function measure(withFloating: boolean): string[] {
  {
    const selector =
      'button:not([disabled]), a[href], input:not([type=hidden]):not([disabled]), select, textarea, [role=tab], [role=switch], summary';
    const floating = (el: Element) => {
      for (let e: Element | null = el; e; e = e.parentElement) if (['fixed', 'sticky'].includes(getComputedStyle(e).position)) return true;
      return false;
    };
    const els = Array.from(document.querySelectorAll<HTMLElement>(selector)).filter((el) => {
      const r = el.getBoundingClientRect();
      const style = getComputedStyle(el);
      // A checkbox or radio inside a label uses the label as its target.
      if (el instanceof HTMLInputElement && (el.type === 'checkbox' || el.type === 'radio') && el.closest('label')) return false;
      const inView = r.bottom > 0 && r.top < window.innerHeight;
      // Scrolled under a sticky header or a fixed bar: hidden, not a target right now.
      const top = document.elementFromPoint(r.left + r.width / 2, (Math.max(r.top, 0) + Math.min(r.bottom, window.innerHeight)) / 2);
      if (top && !el.contains(top) && !top.contains(el) && floating(top)) return false;
      return inView && r.width > 0 && r.height > 0 && style.visibility !== 'hidden' && !el.closest('[aria-hidden=true],.sr-only');
    });

    const name = (el: HTMLElement) =>
      `${el.tagName.toLowerCase()} "${(el.getAttribute('aria-label') ?? el.textContent ?? '').trim().slice(0, 30)}"`;
    const problems: string[] = [];
    const boxes = els.map((el) => {
      const label = el instanceof HTMLInputElement && (el.type === 'checkbox' || el.type === 'radio') ? el.closest('label') : null;
      return { el, r: (label ?? el).getBoundingClientRect() };
    });
    for (const { el, r } of boxes) {
      if (r.width < 43.5 || r.height < 43.5) problems.push(`${name(el)} is ${Math.round(r.width)}×${Math.round(r.height)}`);
    }
    for (let i = 0; i < boxes.length; i++)
      for (let j = i + 1; j < boxes.length; j++) {
        const a = boxes[i]!;
        const b = boxes[j]!;
        if (a.el.contains(b.el) || b.el.contains(a.el)) continue;
        if (floating(a.el) !== floating(b.el)) {
          if (!withFloating) continue;
          // Content scrolls past a sticky header at the top: their distance depends on the scroll position, not on the layout.
          const fixedOne = floating(a.el) ? a : b;
          if (fixedOne.r.bottom < window.innerHeight / 2) continue;
        }
        const gapX = Math.max(b.r.left - a.r.right, a.r.left - b.r.right);
        const gapY = Math.max(b.r.top - a.r.bottom, a.r.top - b.r.bottom);
        if (Math.max(gapX, gapY) < 7.5) problems.push(`${name(a.el)} and ${name(b.el)} are ${Math.round(Math.max(gapX, gapY))} px apart`);
      }
    return problems;
  }
}

/** A browser of its own with nobody signed in (the login screen). */
export async function newPage(browser: Browser, viewport: { width: number; height: number }) {
  const context = await browser.newContext({ viewport, locale: 'es-MX', timezoneId: 'America/Mexico_City' });
  return { context, page: await context.newPage() };
}
