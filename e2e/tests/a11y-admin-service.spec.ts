import { test, expect, expectNoSeriousViolations, signedInContext, signedInRequest, stubPrint, ADMIN } from './fixtures.ts';
import { SHOTS, paidTicket, tableWithItems, voidOne } from './a11y-helpers.ts';

// Tables 70–72 belong to this file: it adds them itself.
test.describe('accessibility', () => {
  test('no serious or critical axe violations on the admin service screens at 1440×900: tables, order with a voided line, boards, tickets and the reprint dialog', async ({
    browser,
  }) => {
    test.setTimeout(240_000);
    // Data: a table with undelivered food and drinks and one voided line (boards, panel), a delivered one, a paid ticket.
    const admin = await signedInContext(browser, 'admin', ADMIN, false);
    const waiter = await signedInRequest('waiter');
    const request = admin.page.request;
    const open = await tableWithItems(request, waiter, 70, [
      ['Tacos al pastor (3)', 2],
      ['Hamburguesa de la casa', 1],
      ['Michelada', 2],
    ]);
    await voidOne(waiter, open.order, 2);
    await tableWithItems(request, waiter, 71, [['Michelada', 1]], true);
    await paidTicket(request, waiter, 72);
    // One item ready, so the Listos column has a card too.
    const ready = open.order.items[0]!;
    expect((await request.patch(`/api/orders/${open.order.id}/items/${ready.id}/status`, { data: { status: 'listo' } })).ok()).toBeTruthy();
    await waiter.dispose();

    const p = admin.page;
    await stubPrint(p);
    await p.goto('/admin/home');
    await expect(p.getByTestId('table-card-70')).toBeVisible();
    await expectNoSeriousViolations(p, 'admin tables');
    await p.goto(`/admin/order/${open.tableId}`);
    await expect(p.getByText('Tacos al pastor (3)').first()).toBeVisible();
    await expect(p.locator('[data-testid="order-item"][data-deleted="true"]').first()).toBeVisible();
    await expectNoSeriousViolations(p, 'admin order with a voided line');
    await p
      .locator('[data-testid="order-item"][data-deleted="true"]')
      .first()
      .screenshot({ path: `${SHOTS}/a11y-voided-line-admin.png` });
    await p.goto('/admin/kanban');
    await expect(p.getByText('Mesa 70').first()).toBeVisible();
    await expectNoSeriousViolations(p, 'admin board');
    await p.goto('/admin/panel');
    await expect(p.getByText('Mesa 70').first()).toBeVisible();
    await expectNoSeriousViolations(p, 'panel');
    await p.goto('/admin/tickets');
    await expect(p.getByTestId('ticket-card').first()).toBeVisible();
    await expectNoSeriousViolations(p, 'tickets');
    await p.getByTestId('ticket-card').first().getByRole('button', { name: /^Ver/ }).click();
    await expect(p.getByRole('dialog').getByText('Michelada').first()).toBeVisible();
    await expectNoSeriousViolations(p, 'ticket reprint dialog');
    await p.screenshot({ path: `${SHOTS}/a11y-ticket-reprint-1440.png` });
    await admin.context.close();
  });
});
