import type { APIRequestContext, Locator, Page } from '@playwright/test';
import { test, expect, addInPicker, enterPin, ACCOUNTS, SHOTS } from './fixtures.ts';

// Tables 20 and 21 belong to this file: the test adds them itself, so no other spec touches them.
const TZ = 'America/Mexico_City';
const FOOD = 'Hamburguesa de la casa';
const DRINK = 'Michelada';

interface CashCloseDto {
  summary: { totalOrders: number; totalSales: number };
  outsideShift: { count: number };
}

const money = (c: number) => new Intl.NumberFormat('es-MX', { style: 'currency', currency: 'MXN' }).format(c / 100);

/** The shift the cash close should show now: 17:00–03:00 business time, so before 03:00 it is yesterday's. */
function shiftDate(): { date: string; inShift: boolean } {
  const now = new Date();
  const day = (at: Date) =>
    new Intl.DateTimeFormat('en-CA', { timeZone: TZ, year: 'numeric', month: '2-digit', day: '2-digit' }).format(at);
  const hour = Number(new Intl.DateTimeFormat('en-US', { timeZone: TZ, hour: 'numeric', hourCycle: 'h23' }).format(now));
  return { date: hour < 3 ? day(new Date(now.getTime() - 24 * 3600_000)) : day(now), inShift: hour >= 17 || hour < 3 };
}

async function cashClose(request: APIRequestContext, date: string): Promise<CashCloseDto> {
  const res = await request.get(`/api/cash-close?date=${date}`);
  expect(res.ok(), await res.text()).toBeTruthy();
  return (await res.json()) as CashCloseDto;
}

/** This order's card for a product in one column of a board. */
function boardCard(page: Page, column: 'pending' | 'ready' | 'delivered', product: string): Locator {
  return page.getByTestId(`column-${column}`).getByTestId('board-card').filter({ hasText: 'Mesa 20' }).filter({ hasText: product });
}

async function prepareAndDeliver(page: Page, product: string): Promise<void> {
  await boardCard(page, 'pending', product).getByRole('button', { name: 'Marcar Listo' }).click();
  await expect(boardCard(page, 'pending', product)).toHaveCount(0);
  await boardCard(page, 'ready', product).getByRole('button', { name: 'Marcar Entregado' }).click();
  await expect(boardCard(page, 'ready', product)).toHaveCount(0);
  await expect(boardCard(page, 'delivered', product)).toBeVisible();
}

test.describe('a Saturday night, four screens at once', () => {
  test('waiter, kitchen, bar and admin carry one table from opening to the cash close', async ({
    adminPage: a,
    waiterPage: w,
    kitchenPage: kitchen,
    barPage: barra,
    api,
  }) => {
    test.setTimeout(120_000);
    await api.tableByNumber(20);
    const t21 = await api.tableByNumber(21);
    // Mesa 21 is already taken by someone else (the admin at the door): the waiter may not touch it.
    const taken = await a.request.post(`/api/tables/${t21.id}/open`);
    expect([200, 409], await taken.text()).toContain(taken.status());
    // The screens were signed in before the tables existed: they load them afresh.
    await a.reload();
    await w.reload();

    await expect(a.getByRole('heading', { name: 'Panel de Mesas' })).toBeVisible();
    await expect(kitchen.getByRole('heading', { name: 'Cocina' })).toBeVisible();
    await expect(barra.getByRole('heading', { name: 'Barra' })).toBeVisible();

    // The waiter opens Mesa 20 from the phone.
    await expect(w.getByRole('heading', { name: 'Mesas', exact: true })).toBeVisible();
    await expect(w.getByRole('button', { name: 'Menú de usuario' })).toBeVisible();
    await expect(w.getByTestId('table-card-21')).toContainText('No disponible');
    await expect(w.getByTestId('table-card-21')).toHaveAttribute('aria-disabled', 'true');
    await w.getByTestId('table-card-20').click();
    await expect(w).toHaveURL(/\/waiter\/order\//);
    await expect(w.getByRole('heading', { name: 'Mesa 20', exact: true, level: 1 })).toBeVisible();
    await expect(w.getByText('Orden Vacía')).toBeVisible();
    // The bottom bar owns the bottom edge here: no floating user menu under or over it.
    await expect(w.getByRole('button', { name: 'Menú de usuario' })).toHaveCount(0);
    const adminCard = a.getByTestId('table-card-20');
    await expect(adminCard.getByText('Activa')).toBeVisible();
    await expect(adminCard.getByText(ACCOUNTS.waiter.name)).toBeVisible();

    // A dish and a drink through the picker, each with a note; three guests and a name.
    await w.getByRole('button', { name: 'Agregar', exact: true }).click();
    await addInPicker(w, { category: 'Comida', name: FOOD, notes: 'término medio' });
    await addInPicker(w, { category: 'Bebida', name: DRINK, notes: 'bien fría' });
    await w.keyboard.press('Escape');
    await expect(w.getByRole('dialog', { name: 'Agregar productos' })).toBeHidden();
    await expect(w.getByTestId('order-item')).toHaveCount(2);
    await expect(w.getByTestId('order-total')).toHaveText('$274.00');
    await w.getByRole('button', { name: 'Agregar persona' }).click();
    await w.getByRole('button', { name: 'Agregar persona' }).click();
    await expect(w.getByTestId('guest-count')).toHaveText('3');
    await w.getByLabel('Nombre de la mesa').fill('Cumpleaños Sofía');
    await w.getByLabel('Nombre de la mesa').blur();
    await expect(adminCard.getByText('Cumpleaños Sofía')).toBeVisible();
    await expect(adminCard.getByTestId('table-total')).toHaveText('$274.00');
    const charge = w.getByRole('button', { name: 'Cobrar' });
    await expect(charge).toBeDisabled();
    await w.screenshot({ path: `${SHOTS}/saturday-waiter-order.png` });

    // Each station sees only its own item, live, with the note and the table's name.
    const food = boardCard(kitchen, 'pending', FOOD);
    await expect(food).toBeVisible();
    await expect(food).toContainText('término medio');
    await expect(food).toContainText('Cumpleaños Sofía');
    await expect(boardCard(kitchen, 'pending', DRINK)).toHaveCount(0);
    const drink = boardCard(barra, 'pending', DRINK);
    await expect(drink).toBeVisible();
    await expect(drink).toContainText('bien fría');
    await expect(boardCard(barra, 'pending', FOOD)).toHaveCount(0);
    await kitchen.screenshot({ path: `${SHOTS}/saturday-kitchen.png` });

    // The admin watches the tickets while the stations work.
    await a.goto('/admin/tickets');
    await expect(a.getByRole('heading', { name: 'Tickets', exact: true })).toBeVisible();

    await prepareAndDeliver(kitchen, FOOD);
    await expect(w.getByTestId('count-entregado')).toContainText('1');
    await expect(charge).toBeDisabled();
    await prepareAndDeliver(barra, DRINK);
    // The waiter's Cobrar opens by itself once both are delivered.
    await expect(charge).toBeEnabled();
    await expect(w.getByTestId('payment-gate')).toHaveCount(0);

    // Cash with a 10 % tip: 274.00 + 27.40 = 301.40, paid with 400.00.
    await charge.click();
    await expect(w).toHaveURL(/\/waiter\/checkout\//);
    const orderId = new URL(w.url()).pathname.split('/').pop()!;
    const ticketNumber = `#${orderId.slice(0, 6).toUpperCase()}`;
    await expect(w.getByRole('heading', { name: /Cobro · Mesa 20/ })).toBeVisible();
    await w.getByRole('button', { name: '10%' }).click();
    await expect(w.getByTestId('tip-amount')).toHaveText('$27.40');
    await expect(w.getByTestId('checkout-total')).toHaveText('$301.40');
    await w.getByRole('button', { name: 'Efectivo' }).click();
    await w.getByLabel('Monto recibido').fill('400');
    await expect(w.getByTestId('cash-change')).toHaveText('$98.60');

    const shift = shiftDate();
    const before = await cashClose(a.request, shift.date);
    await w.getByRole('button', { name: 'Finalizar' }).click();
    const pin = w.getByRole('dialog', { name: 'PIN de quien cobra' });
    await enterPin(w, ACCOUNTS.waiter.pin);
    await expect(pin).toBeHidden();
    await expect(w.getByTestId('status-chip')).toHaveText('PAGADO');
    await expect(w.getByTestId('paid-banner')).toContainText(ACCOUNTS.waiter.name);
    await w.screenshot({ path: `${SHOTS}/saturday-waiter-paid.png` });

    // The admin's Tickets page shows the new ticket without a reload.
    const ticket = a.getByTestId('ticket-card').filter({ hasText: ticketNumber });
    await expect(ticket).toBeVisible();
    await expect(ticket).toContainText('Mesa 20');
    await expect(ticket).toContainText('Cumpleaños Sofía');
    await expect(ticket).toContainText(ACCOUNTS.waiter.name);
    await expect(ticket).toContainText('$301.40');
    await a.screenshot({ path: `${SHOTS}/saturday-admin-tickets.png` });

    // The table is free again for the next party.
    await w.goto('/waiter/home');
    await expect(w.getByTestId('table-card-20')).toContainText('Libre');

    // The cash close of this shift counts the order (or, between shifts, says it belongs to none).
    await a.goto('/admin/cierre');
    await expect(a.getByRole('heading', { name: 'Cierre de Caja' })).toBeVisible();
    await a.getByLabel('Fecha del turno').fill(shift.date);
    await expect(a.getByLabel('Fecha del turno')).toHaveValue(shift.date);
    const after = await cashClose(a.request, shift.date);
    if (shift.inShift) {
      expect(after.summary.totalOrders).toBe(before.summary.totalOrders + 1);
      expect(after.summary.totalSales).toBe(before.summary.totalSales + 30_140);
      await expect(a.getByTestId('summary-cards')).toContainText(money(after.summary.totalSales));
      await expect(a.getByTestId('by-waiter')).toContainText(ACCOUNTS.waiter.name);
      await expect(a.getByTestId('top-products')).toContainText(FOOD);
    } else {
      expect(after.outsideShift.count).toBe(before.outsideShift.count + 1);
      const notice = a.getByTestId('outside-shift');
      await expect(notice).toContainText(after.outsideShift.count === 1 ? '1 orden pagada' : `${after.outsideShift.count} órdenes pagadas`);
      await notice.getByRole('button', { name: 'Ver órdenes' }).click();
      await expect(notice).toContainText(ticketNumber);
      await expect(notice).toContainText('$301.40');
    }
    await a.screenshot({ path: `${SHOTS}/saturday-cash-close.png`, fullPage: true });
  });
});
