import { test, expect, login, type OrderDto, SHOTS } from './fixtures.ts';

// Table 491 belongs to this file.

test.describe('self-invoice on the ticket', () => {
  test('the reprint shows the QR of the self-invoice page, its key and until when it may be invoiced', async ({ page, api }) => {
    await page.setViewportSize({ width: 1280, height: 900 });
    await login(page, 'admin');
    const order = await api.openTable<OrderDto & { subtotal: number }>(page.request, 491, [['Michelada', 2]]);
    await api.deliverAll(page.request, order);
    const closed = await page.request.post(`/api/orders/${order.id}/close`, {
      headers: { 'Idempotency-Key': `e2e-self-invoice-${order.id}` },
      data: { method: 'efectivo', pin: '1234', tipBps: 0, peopleCount: 1, receivedAmount: order.subtotal * 2 },
    });
    expect(closed.ok(), await closed.text()).toBeTruthy();
    // The receipts' worker issues it at the PAC (the simulator in demo mode) right after the close.
    let key = '';
    await expect
      .poll(
        async () => {
          const body = (await (await page.request.get(`/api/tickets/${order.id}`)).json()) as {
            invoicing: { state: string; receiptKey: string | null } | null;
          };
          key = body.invoicing?.receiptKey ?? '';
          return body.invoicing?.state;
        },
        { timeout: 15_000 },
      )
      .toBe('emitido');

    await page.goto('/admin/tickets');
    const card = page.getByTestId('ticket-card').filter({ hasText: `#${order.id.slice(0, 6).toUpperCase()}` });
    await card.getByRole('button', { name: 'Ver / Reimprimir' }).click();
    const dialog = page.getByRole('dialog');
    const block = dialog.getByTestId('self-invoice').first();
    await expect(block.getByRole('img', { name: 'Código QR para facturar en línea' })).toBeVisible();
    await expect(block).toContainText(`Clave: ${key}`);
    await expect(block).toContainText(/Factura en línea hasta el \d{2}\/\d{2}\/\d{4}/);
    await expect(dialog.getByRole('button', { name: 'Imprimir en caja' })).toBeVisible();
    await block.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SHOTS}/self-invoice-reprint.png` });
  });
});
