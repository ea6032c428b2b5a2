import { test, expect, signedInContext, MOBILE } from './fixtures.ts';

// Tables 900–999 belong to this file: the test adds its own.
test("a waiter's table screen sees another waiter take a table live, without reading the tables again or ever receiving that waiter's order id", async ({
  browser,
}) => {
  const admin = await signedInContext(browser, 'admin');
  // A table of its own, numbered 900–999 (other specs use lower numbers), new on every run and retry.
  let number = 0;
  for (let tries = 0; !number && tries < 20; tries++) {
    const candidate = 900 + Math.floor(Math.random() * 100);
    const created = await admin.page.request.post('/api/tables', { data: { number: candidate } });
    if (created.ok()) number = candidate;
  }
  expect(number).toBeGreaterThan(0);
  const tables = (await (await admin.page.request.get('/api/tables')).json()) as { tables: { id: string; number: number }[] };
  const table = tables.tables.find((t) => t.number === number)!;

  const waiter = await signedInContext(browser, 'waiter', MOBILE);
  const frames: string[] = [];
  // When the server last confirmed the phone's subscriptions: the screen reads once more after it.
  let subscribedAt = 0;
  waiter.page.on('websocket', (ws) =>
    ws.on('framereceived', (f) => {
      const frame = String(f.payload);
      frames.push(frame);
      if (frame.includes('"subscribed"')) subscribedAt = Date.now();
    }),
  );
  // Every read of the table list this phone makes, with when it was sent.
  const reads: number[] = [];
  waiter.page.on('request', (r) => {
    if (r.method() === 'GET' && new URL(r.url()).pathname === '/api/tables') reads.push(Date.now());
  });
  await waiter.page.reload();
  const card = waiter.page.getByTestId(`table-card-${number}`);
  await expect(card).not.toContainText('No disponible');
  // Settled: its live connection confirmed and the one read that follows done (none for 400 ms
  // since either; on a slow machine the confirmation can come well after the first read).
  await expect
    .poll(() => (reads.length && subscribedAt ? Date.now() - Math.max(reads.at(-1)!, subscribedAt) : 0), { timeout: 15_000 })
    .toBeGreaterThan(400);
  const readsBefore = reads.length;

  // The other waiter opens that table and adds an item, through the API.
  const other = await signedInContext(browser, 'waiter2', MOBILE);
  const opened = await other.page.request.post(`/api/tables/${table.id}/open`);
  expect(opened.ok(), await opened.text()).toBeTruthy();
  const { order } = (await opened.json()) as { order: { id: string } };
  const products = ((await (await other.page.request.get('/api/products?available=1')).json()) as { products: { id: string }[] }).products;
  expect(
    (await other.page.request.post(`/api/orders/${order.id}/items`, { data: { productId: products[0]!.id, quantity: 1 } })).ok(),
  ).toBeTruthy();

  // No reload: the first waiter's screen shows the table taken...
  await expect(card).toContainText('No disponible');
  // ...patched from the event's public state of the table: the phone read no table list for it.
  await waiter.page.waitForTimeout(300);
  expect(reads.length - readsBefore).toBe(0);
  // ...and nothing the socket delivered named the other waiter's order.
  expect(frames.length).toBeGreaterThan(0);
  expect(frames.filter((f) => f.includes(order.id))).toEqual([]);
  for (const c of [admin, waiter, other]) await c.context.close();
});
