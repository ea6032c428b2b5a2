import fc from 'fast-check';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SessionUser } from '@comanda/contract';
import {
  BAR_CATEGORIES,
  BAR_TABLE_NUMBER,
  INITIAL_ITEM_STATUS,
  CARD_PAYMENT_STATES,
  isPlainAdd,
  isPlainDelete,
  isPlainOrder,
  ORDER_LIMITS,
  pendingLineFor,
  PLAIN_CASE,
  type PlainOrderFacts,
} from '@comanda/domain';
import { startTestServer, testDatabaseKinds, type TestServer } from '../src/testing/index.ts';
import {
  insertCardPayment,
  insertCashPayment,
  insertOrder,
  insertOrderItems,
  insertPrinter,
  insertProduct,
  insertStationPrinters,
  insertTable,
  orderItemRow,
} from '../src/testing/factories.ts';
import { readThenRollBack } from '../src/testing/reads.ts';
import { addItemInTypeScript } from '../src/features/orders/add-item.command.ts';
import { deleteItemInTypeScript } from '../src/features/orders/delete-item.command.ts';
import { pinBudgets, pinHashOf, type VerifyPinInput } from '../src/auth/verify-pin.ts';
import { SESSION_CHECK } from '../src/auth/sessions.ts';
import { AppError } from '../src/http/errors.ts';
import { newId } from '../src/http/ids.ts';
import { withoutKey } from '../src/http/request-context.ts';
import type { Trx } from '../src/http/transaction.ts';

/**
 * The fast path agrees with the rules: drawn order states, products, options, roles, PINs and
 * promotions, each add and delete runs as PostgreSQL's one statement (rolled back) and as the
 * TypeScript write. Where the domain's plain case (isPlainAdd, isPlainDelete) says the statement
 * may write, it must, leaving the very rows and answer the TypeScript write leaves; anywhere else
 * it must hand over. A refusal added on one side only fails here. AGREEMENT_RUNS draws more cases.
 */
const onPostgres = testDatabaseKinds().includes('postgres');
/** PostgreSQL only (declared and skipped without TEST_DATABASE_URL: Vitest fails a file that declares none). */
const kinds = ['postgres'] as const;
const RUNS = Number(process.env.AGREEMENT_RUNS ?? 25);
const NOT_PLAIN = 'CMQ01';

type Caller = 'admin' | 'waiter' | 'waiter2' | 'kitchen';

/**
 * A case: the plain case with none, one or two things changed (one most often), so that each
 * reason to hand over meets the statement alone in a few dozen runs, and pairs of them sometimes.
 */
function deviating<T extends Record<string, unknown>>(
  plain: T,
  changes: { [K in keyof T]?: fc.Arbitrary<T[K]> },
): fc.Arbitrary<T & { changed: string[] }> {
  const keys = Object.keys(changes);
  const chosen = fc.oneof(
    { weight: 1, arbitrary: fc.constant<string[]>([]) },
    { weight: 4, arbitrary: fc.constantFrom(...keys).map((k) => [k]) },
    { weight: 1, arbitrary: fc.subarray(keys, { minLength: 2, maxLength: 2 }) },
  );
  return chosen.chain((ks) =>
    fc
      .record(Object.fromEntries(ks.map((k) => [k, changes[k]!])) as Record<string, fc.Arbitrary<unknown>>)
      .map((values) => ({ ...plain, ...values, changed: ks }) as T & { changed: string[] }),
  );
}

/** An order as the case finds it: who asks, who opened it, its state, and what is on it besides its lines. */
const PLAIN_SCENE = {
  caller: 'waiter' as Caller,
  owner: 'waiter' as 'waiter' | 'waiter2' | 'nobody',
  status: 'activo' as 'activo' | 'cancelado',
  figures: 'none' as 'none' | 'discount' | 'share',
  card: null as string | null,
  payment: false,
  adjustment: false,
  promotion: false,
  crowded: false,
};
const SCENE_CHANGES = {
  caller: fc.constantFrom<Caller>('admin', 'waiter2', 'kitchen'),
  owner: fc.constantFrom<'waiter2' | 'nobody'>('waiter2', 'nobody'),
  status: fc.constant<'cancelado'>('cancelado'),
  figures: fc.constantFrom<'discount' | 'share'>('discount', 'share'),
  // Every state but a timed-out one (the TypeScript write would ask the card provider first).
  card: fc.constantFrom<string | null>(...CARD_PAYMENT_STATES.filter((s) => s !== 'timeout')),
  payment: fc.constant(true),
  adjustment: fc.constant(true),
  promotion: fc.constant(true),
  crowded: fc.constant(true),
};
type Scene = typeof PLAIN_SCENE;

/**
 * A line of the added product already on the order, written straight into the row: one the add
 * may raise (pending, the same notes and price, no options, room for the units), or one thing
 * away from it. Its age in seconds before the add; two of the same age tie.
 */
const RAISABLE_TWIN = {
  status: 'pendiente' as string,
  deleted: false,
  notes: 'same' as 'same' | 'spaced' | 'other',
  quantity: 1,
  price: 'same' as 'same' | 'stale',
  options: false,
  adjustment: 'none' as 'none' | 'removed' | 'live',
  age: 0,
};
const twinArb = fc.oneof(
  { weight: 2, arbitrary: fc.integer({ min: 0, max: 2 }).map((age) => ({ ...RAISABLE_TWIN, age, changed: [] as string[] })) },
  {
    weight: 3,
    arbitrary: deviating(RAISABLE_TWIN, {
      status: fc.constantFrom('en_preparacion', 'listo', 'entregado'),
      deleted: fc.constant(true),
      // Blank around the same notes (as only a row written by hand keeps them): the same notes still.
      notes: fc.constantFrom<'spaced' | 'other'>('spaced', 'other'),
      quantity: fc.constantFrom(3, ORDER_LIMITS.maxLineQuantity - 1),
      price: fc.constant<'stale'>('stale'),
      options: fc.constant(true),
      // A discount on the line taken back leaves it raisable; a live one is on the order too.
      adjustment: fc.constantFrom<'removed' | 'live'>('removed', 'removed', 'live'),
      age: fc.integer({ min: 0, max: 2 }),
    }),
  },
);
type Twin = typeof RAISABLE_TWIN;

const addArb = fc
  .record({
    product: fc.constantFrom<string>('tacos', 'cerveza', 'postre', 'quesadilla'),
    quantity: fc.oneof(
      { weight: 3, arbitrary: fc.integer({ min: 1, max: 4 }) },
      { weight: 1, arbitrary: fc.integer({ min: 1, max: ORDER_LIMITS.maxLineQuantity }) },
    ),
    notes: fc.constantFrom(null, '', '  sin cebolla ', 'con "limón"'),
    lines: fc.integer({ min: 0, max: 2 }),
    twins: fc.array(twinArb, { maxLength: 3 }),
  })
  .chain((plain) =>
    deviating(
      { ...PLAIN_SCENE, ...plain, option: false },
      {
        ...SCENE_CHANGES,
        product: fc.constantFrom('tabulado', 'agotado', 'con-salsa', 'reserva', 'ninguno'),
        option: fc.constant(true),
      },
    ),
  );

/** Cases every run meets: raises of a pending line, and near misses that make a new line. */
const plainAdd = {
  ...PLAIN_SCENE,
  product: 'postre',
  quantity: 2,
  notes: null as string | null,
  lines: 0,
  twins: [] as (Twin & { changed: string[] })[],
  option: false,
  changed: [] as string[],
};
const twinWith = (over: Partial<Twin> = {}) => ({ ...RAISABLE_TWIN, ...over, changed: Object.keys(over) });
const ADD_EXAMPLES: (typeof plainAdd)[] = [
  // The tacos the order was given before, added again: that line goes up.
  { ...plainAdd, product: 'tacos', lines: 1 },
  // The newest of two raisable lines, its notes written with blanks around them.
  { ...plainAdd, product: 'cerveza', notes: '  sin cebolla ', twins: [twinWith({ age: 2 }), twinWith({ notes: 'spaced', age: 1 })] },
  // Two raisable lines of the same moment: the same one on both paths.
  { ...plainAdd, twins: [twinWith(), twinWith(), twinWith({ age: 1 })] },
  // A discount on the line, taken back, no longer holds it.
  { ...plainAdd, product: 'quesadilla', quantity: 3, twins: [twinWith({ adjustment: 'removed' })] },
  // Sent to the kitchen, voided, other notes, an older price, options, no room left: a new line.
  {
    ...plainAdd,
    twins: [
      twinWith({ status: 'en_preparacion' }),
      twinWith({ deleted: true }),
      twinWith({ notes: 'other' }),
      twinWith({ price: 'stale' }),
    ],
  },
  { ...plainAdd, quantity: 4, twins: [twinWith({ options: true }), twinWith({ quantity: ORDER_LIMITS.maxLineQuantity - 1 })] },
];

const deleteArb = deviating(
  {
    ...PLAIN_SCENE,
    target: 'live' as 'live' | 'deleted' | 'missing',
    withOptions: false,
    printed: true,
    pin: 'admin' as 'admin' | 'own' | 'other' | 'wrong',
  },
  {
    ...SCENE_CHANGES,
    target: fc.constantFrom<'deleted' | 'missing'>('deleted', 'missing'),
    withOptions: fc.constant(true),
    printed: fc.constant(false),
    pin: fc.constantFrom<'own' | 'other' | 'wrong'>('own', 'other', 'wrong'),
  },
);

describe.skipIf(!onPostgres).each(kinds)('the fast path and the rules agree on %s', (kind) => {
  let server: TestServer;
  let now = Date.UTC(2026, 10, 30, 21, 0);
  const clock = { now: () => now };
  let nextTable = 3000;
  const products: Record<string, { id: string; name: string; category: string; price: number }> = {};
  let optionId = '';
  let promotionId = '';
  const crowd: string[] = [];

  beforeAll(async () => {
    // The drawn states are written straight into the rows, some beyond what the API lets happen.
    server = await startTestServer(kind, { clock, checkInvariants: false });
    const db = server.ctx.db.db;
    await insertStationPrinters(db, now);
    for (let i = 0; i < 4; i++)
      crowd.push((await insertPrinter(db, { name: `Cocina extra ${i}`, role: 'cocina', enabled: 0, created_at: now })).id);
    const made: [string, string, string, number, number][] = [
      ['tacos', 'Tacos al pastor', 'Comida', 4_500, 1],
      ['cerveza', 'Cerveza de barril', ' BEBIDA ', 6_000, 1],
      ['postre', 'Pastel de elote', 'Postre típico', 5_500, 1],
      ['tabulado', 'Ron', 'Bebida\t', 9_000, 1],
      ['agotado', 'Pozole', 'Comida', 12_000, 0],
      ['con-salsa', 'Tacos de canasta', 'Tacos', 3_000, 1],
      ['quesadilla', 'Quesadilla', 'Comida', 4_000, 1],
      ['reserva', 'Botella reserva', 'Botella', 2_000_000, 1],
    ];
    for (const [key, name, category, price, available] of made)
      products[key] = { id: (await insertProduct(db, { name, category, price, available, created_at: now })).id, name, category, price };
    products.ninguno = { id: newId(), name: 'Ninguno', category: 'Comida', price: 0 };
    // A required choice on a category, an optional one on a product (decision 0026's groups).
    const group = async (name: string, min: number, link: { product_id: string | null; category: string | null }) => {
      const id = newId();
      await db
        .insertInto('modifier_groups')
        .values({ id, name, min_select: min, max_select: 1, position: 0, created_at: now, updated_at: now })
        .execute();
      const option = newId();
      await db
        .insertInto('modifier_options')
        .values({ id: option, group_id: id, name: `${name} sí`, price_delta: 1_000, available: 1, position: 0 })
        .execute();
      await db
        .insertInto('modifier_links')
        .values({ id: newId(), group_id: id, ...link })
        .execute();
      return option;
    };
    await group('Salsa', 1, { product_id: null, category: 'Tacos' });
    optionId = await group('Extra queso', 0, { product_id: products.quesadilla!.id, category: null });
    promotionId = newId();
    await db
      .insertInto('promotions')
      .values({
        id: promotionId,
        name: 'Hora feliz',
        kind: 'percent',
        percent_bps: 1_000,
        fixed_price: null,
        buy: null,
        pay: null,
        days: '[0,1,2,3,4,5,6]',
        start_minute: 0,
        end_minute: 1_439,
        product_ids: '[]',
        categories: '["Bebida"]',
        active: 0,
        created_at: now,
        updated_at: now,
      })
      .execute();
  }, 60_000);
  afterAll(async () => {
    await server?.close();
  });

  const db = () => server.ctx.db.db;
  const userOf = (who: Caller): SessionUser => {
    const u = server.users[who];
    const role = who === 'waiter2' ? 'waiter' : who;
    return { id: u.id, email: u.email, displayName: u.displayName, role };
  };

  /** The order the case draws, committed: opened, its lines added the TypeScript way, then its state set. */
  async function stage(scene: Scene, lines: (orderId: string) => Promise<void>): Promise<string> {
    now += 60_000;
    await db()
      .updateTable('promotions')
      .set({ active: scene.promotion ? 1 : 0 })
      .where('id', '=', promotionId)
      .execute();
    await db()
      .updateTable('printers')
      .set({ enabled: scene.crowded ? 1 : 0 })
      .where('id', 'in', crowd)
      .execute();
    await db().deleteFrom('throttle_hits').execute();
    const table = await insertTable(db(), { number: nextTable++, created_at: now, status: 'ocupada' });
    const owner = scene.owner === 'nobody' ? null : server.users[scene.owner];
    const order = await insertOrder(db(), table, owner, { created_at: now });
    await db().updateTable('tables').set({ current_order_id: order.id }).where('id', '=', table.id).execute();
    await lines(order.id);
    const figures = scene.figures === 'discount' ? { discount: 100 } : scene.figures === 'share' ? { share_amount: 1_000 } : {};
    await db()
      .updateTable('orders')
      .set({ status: scene.status as 'activo', ...figures })
      .where('id', '=', order.id)
      .execute();
    if (scene.card)
      await insertCardPayment(db(), order.id, { amount: 1_000, created_by: server.users.admin.id, created_at: now, state: scene.card });
    if (scene.payment)
      await insertCashPayment(db(), order.id, { id: server.users.admin.id, name: 'Admin' }, { amount: 100, created_at: now });
    if (scene.adjustment) await insertAdjustment(order.id, null, null);
    return order.id;
  }

  /** A discount of the order (itemId null) or of one line, taken back at `removedAt` unless that is null. */
  async function insertAdjustment(orderId: string, itemId: string | null, removedAt: number | null) {
    const admin = server.users.admin;
    await db()
      .insertInto('order_adjustments')
      .values({
        id: newId(),
        order_id: orderId,
        item_id: itemId,
        kind: 'discount',
        units: null,
        percent_bps: null,
        requested_amount: 100,
        amount: 100,
        reason: 'Cortesía',
        note: null,
        authorized_by: admin.id,
        authorized_by_name: admin.displayName,
        created_by: admin.id,
        created_by_name: admin.displayName,
        created_at: now,
        removed_at: removedAt,
        removed_by: removedAt === null ? null : admin.id,
        removed_by_name: removedAt === null ? null : admin.displayName,
      })
      .execute();
  }

  /** The drawn lines of the added product, written as rows, and the order's figures summed again as an add leaves them. */
  async function stageTwins(orderId: string, product: (typeof products)[string], notes: string | null, twins: readonly Twin[]) {
    for (const t of twins) {
      const row = orderItemRow(orderId, product, {
        created_at: now - t.age * 1_000,
        status: t.status as 'pendiente',
        is_deleted: t.deleted ? 1 : 0,
        quantity: t.quantity,
        product_price: t.price === 'stale' ? product.price + 500 : product.price,
        notes: t.notes === 'other' ? 'sin sal' : t.notes === 'spaced' ? `\u00a0 ${notes ?? ''}\t\u3000` : notes,
        modifiers: t.options ? JSON.stringify([{ optionId: optionId, optionName: 'Extra queso sí', priceDelta: 1_000 }]) : null,
      });
      await insertOrderItems(db(), [row]);
      if (t.adjustment !== 'none') await insertAdjustment(orderId, row.id, t.adjustment === 'removed' ? now : null);
    }
    const live = sql<number>`(SELECT COALESCE(SUM(product_price * quantity), 0) FROM order_items WHERE order_id = ${orderId} AND is_deleted = 0)`;
    await db().updateTable('orders').set({ subtotal: live, total: live }).where('id', '=', orderId).execute();
  }

  /** What the plain case reads of the order. */
  async function orderFacts(orderId: string): Promise<PlainOrderFacts | null> {
    const o = await db().selectFrom('orders').selectAll().where('id', '=', orderId).executeTakeFirst();
    if (!o) return null;
    const count = async (table: 'card_payments' | 'payments' | 'order_adjustments', states?: readonly string[]) => {
      let q = db()
        .selectFrom(table)
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('order_id', '=', orderId);
      if (table === 'card_payments') q = q.where('state', 'in', [...(states ?? [])]);
      if (table === 'order_adjustments') q = q.where('removed_at', 'is', null);
      return Number((await q.executeTakeFirstOrThrow()).n);
    };
    return {
      status: o.status,
      waiterId: o.waiter_id,
      shareAmount: Number(o.share_amount),
      sharedOut: Number(o.shared_out),
      discount: Number(o.discount),
      comp: Number(o.comp),
      liveCardAttempts: await count('card_payments', PLAIN_CASE.cardStates),
      payments: await count('payments'),
      liveAdjustments: await count('order_adjustments'),
    };
  }

  /** Every row an add or a delete writes for the order, ids of the written line and rows of their own left out. */
  async function rowsOf(trx: Pick<Trx, 'selectFrom'>, orderId: string, itemId: string) {
    const mask = (text: string | null) => text?.replaceAll(itemId, '…') ?? null;
    const items = await trx
      .selectFrom('order_items')
      .selectAll()
      .where('order_id', '=', orderId)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    const jobs = await trx
      .selectFrom('print_jobs')
      .select(['printer_id', 'role', 'order_id', 'kind', 'document', 'created_at'])
      .where('order_id', '=', orderId)
      .orderBy('printer_id')
      .orderBy('kind')
      // Of one printer's comandas, the staged lines' first and the add's last.
      .orderBy('seq')
      .execute();
    const audit = await trx
      .selectFrom('audit_log')
      .select(['at', 'actor_id', 'actor_name', 'authorized_by', 'action', 'entity', 'entity_id', 'data'])
      .where('entity_id', '=', orderId)
      .orderBy('seq')
      .execute();
    const order = await trx.selectFrom('orders').selectAll().where('id', '=', orderId).executeTakeFirstOrThrow();
    return {
      items: items.map((i) => ({ ...i, id: mask(i.id) })),
      jobs: jobs.map((j) => ({ ...j, document: mask(j.document) })),
      audit: audit.map((a) => ({ ...a, data: mask(a.data) })),
      order,
    };
  }

  type Fast =
    | { handedOver: true }
    | { pin: string }
    | { result: { order: { subtotal: number; version: number }; item: { id: string } }; rows: unknown };
  type Plain =
    { answered: { subtotal: number; version: number; itemId: string }; rows: unknown } | { refused: { status: number; code: string } };

  /** The statement in a transaction rolled back: its answer and the rows it left, or its hand-over. */
  const fast = (call: (trx: Trx) => Promise<unknown>, orderId: string): Promise<Fast> =>
    readThenRollBack(server.ctx.db, async (trx) => {
      try {
        const answer = (await call(trx)) as { pin?: string } | Extract<Fast, { result: unknown }>['result'];
        if ('pin' in answer && answer.pin) return { pin: answer.pin };
        const result = answer as Extract<Fast, { result: unknown }>['result'];
        return { result, rows: await rowsOf(trx, orderId, result.item.id) };
      } catch (error) {
        if ((error as { code?: string }).code !== NOT_PLAIN) throw error;
        return { handedOver: true as const };
      }
    });

  const refusal = (error: unknown) => {
    if (!(error instanceof AppError)) throw error;
    return { refused: { status: error.statusCode, code: error.code } };
  };

  /** The fast write's rows and answer are the TypeScript write's. */
  const sameAs = (f: Fast, p: Plain, label: string) => {
    expect(p, label).toHaveProperty('answered');
    if (!('result' in f) || !('answered' in p)) return;
    expect(f.rows, label).toEqual(p.rows);
    expect({ subtotal: Number(f.result.order.subtotal), version: Number(f.result.order.version) }, label).toEqual({
      subtotal: p.answered.subtotal,
      version: p.answered.version,
    });
  };

  it('adds: the plain case written the same, anything else handed over', async () => {
    let raised = 0;
    await fc.assert(
      fc.asyncProperty(addArb, async (c) => {
        const label = JSON.stringify(c);
        const caller = userOf(c.caller);
        const product = products[c.product]!;
        const sameNotes = c.notes?.trim() ? c.notes.trim() : null;
        const orderId = await stage(c, async (id) => {
          for (let i = 0; i < c.lines; i++)
            await addItemInTypeScript(withoutKey(server.ctx), userOf('admin'), { orderId: id, productId: products.tacos!.id, quantity: 2 });
          // A product that is not in the catalogue has no lines.
          if (c.product !== 'ninguno') await stageTwins(id, product, sameNotes, c.twins);
        });
        const optionIds = c.option ? [optionId] : [];
        const order = await orderFacts(orderId);
        const row = await db().selectFrom('products').selectAll().where('id', '=', product.id).executeTakeFirst();
        const stationPrinters = async (category: string) =>
          Number(
            (
              await db()
                .selectFrom('printers')
                .select((eb) => eb.fn.countAll<number>().as('n'))
                .where('enabled', '=', 1)
                .where('role', '=', BAR_CATEGORIES.has(category.trim().toLowerCase()) ? 'barra' : 'cocina')
                .executeTakeFirstOrThrow()
            ).n,
          );
        const required = row
          ? await db()
              .selectFrom('modifier_links')
              .innerJoin('modifier_groups', 'modifier_groups.id', 'modifier_links.group_id')
              .select('modifier_groups.id')
              .where('modifier_groups.min_select', '>', 0)
              .where((eb) => eb.or([eb('modifier_links.product_id', '=', row.id), eb('modifier_links.category', '=', row.category)]))
              .executeTakeFirst()
          : undefined;
        const lines = await db()
          .selectFrom('order_items')
          .select([
            'id',
            'product_price',
            'quantity',
            'is_deleted',
            'product_id',
            'status',
            'modifiers',
            'promotion_id',
            'notes',
            'created_at',
          ])
          .select(
            sql<number>`(SELECT COUNT(*) FROM order_adjustments WHERE item_id = order_items.id AND removed_at IS NULL)`.as('adjustments'),
          )
          .where('order_id', '=', orderId)
          .execute();
        // The line the TypeScript write raises, by the domain's rule (pendingLineFor).
        const twin = pendingLineFor(
          lines.map((l) => ({
            id: l.id,
            productId: l.product_id,
            status: l.status,
            isDeleted: l.is_deleted === 1,
            quantity: Number(l.quantity),
            unitPrice: Number(l.product_price),
            notes: l.notes,
            modifiers: l.modifiers,
            promotionId: l.promotion_id,
            adjusted: Number(l.adjustments) > 0,
            createdAt: Number(l.created_at),
          })),
          {
            productId: product.id,
            quantity: c.quantity,
            unitPrice: row ? Number(row.price) : 0,
            notes: sameNotes,
            modifiers: null,
            promotionsActive: c.promotion,
          },
        );
        const plain = isPlainAdd(caller, order, {
          role: caller.role,
          optionIds: optionIds.length,
          product: row
            ? {
                available: row.available === 1,
                category: row.category,
                price: Number(row.price),
                requiredOptions: required !== undefined,
                stationPrinters: await stationPrinters(row.category),
              }
            : null,
          quantity: c.quantity,
          promotionsActive: c.promotion,
          lines: lines.length,
          subtotal: lines.filter((l) => !l.is_deleted).reduce((s, l) => s + Number(l.product_price) * l.quantity, 0),
          raises: twin !== null,
        });

        const itemId = newId();
        const notes = sameNotes;
        const jobIds = Array.from({ length: PLAIN_CASE.maxJobs }, newId);
        const f = await fast(
          async (trx) =>
            (
              await sql<{
                result: unknown;
              }>`select comanda_quick_add(null, null, null, ${orderId}, ${product.id}, ${c.quantity}::integer, ${notes},
                ${caller.id}, ${caller.displayName}, null, ${caller.role}, ${SESSION_CHECK.idleMs}::bigint, ${SESSION_CHECK.touchEveryMs}::bigint,
                ${now}::bigint, ${itemId}, ${newId()}, ${jobIds}::text[], ${[...BAR_CATEGORIES]}::text[], ${BAR_TABLE_NUMBER}::integer,
                ${ORDER_LIMITS.maxLines}::integer, ${ORDER_LIMITS.maxOrderAmount}::bigint, ${INITIAL_ITEM_STATUS},
                ${[...PLAIN_CASE.cardStates]}::text[]) as result`.execute(trx)
            ).rows[0]!.result,
          orderId,
        );
        // The statement is asked only when the server would (mayQuickAdd); it must hand over then too.
        const input = { orderId, productId: product.id, quantity: c.quantity, notes: c.notes, optionIds };
        let p: Plain;
        try {
          const written = await addItemInTypeScript(withoutKey(server.ctx), caller, input);
          const item = written.itemIds[0]!;
          const after = await db().selectFrom('orders').select(['subtotal', 'version']).where('id', '=', orderId).executeTakeFirstOrThrow();
          p = {
            answered: { subtotal: Number(after.subtotal), version: Number(after.version), itemId: item },
            rows: await rowsOf(db(), orderId, item),
          };
        } catch (error) {
          p = refusal(error);
        }
        if (c.option) {
          // Options chosen never reach the statement (mayTryPlainAdd); the statement alone cannot see them.
          expect(plain, label).toBe(false);
          return;
        }
        expect('handedOver' in f, label).toBe(!plain);
        if (!plain) return;
        // The line the rule picks is the one raised (or, with none, the new line).
        if ('result' in f) expect(f.result.item.id, label).toBe(twin?.id ?? itemId);
        if (twin) raised++;
        sameAs(f, p, label);
      }),
      { numRuns: RUNS, examples: ADD_EXAMPLES.map((e) => [e]) },
    );
    // The examples alone raise four lines on the fast path.
    expect(raised).toBeGreaterThanOrEqual(4);
  }, 600_000);

  it('deletes with a PIN: the plain case written the same, a PIN refused the same, anything else handed over', async () => {
    await fc.assert(
      fc.asyncProperty(deleteArb, async (c) => {
        const label = JSON.stringify(c);
        const caller = userOf(c.caller);
        let lineId = '';
        const orderId = await stage(c, async (id) => {
          const admin = userOf('admin');
          const written = c.withOptions
            ? await addItemInTypeScript(withoutKey(server.ctx), admin, {
                orderId: id,
                productId: products.quesadilla!.id,
                quantity: 2,
                optionIds: [optionId],
              })
            : await addItemInTypeScript(withoutKey(server.ctx), admin, { orderId: id, productId: products.cerveza!.id, quantity: 3 });
          await addItemInTypeScript(withoutKey(server.ctx), admin, { orderId: id, productId: products.tacos!.id, quantity: 1 });
          lineId = written.itemIds[0]!;
          if (!c.printed) await db().deleteFrom('print_jobs').where('order_id', '=', id).execute();
          if (c.target === 'deleted') {
            // Deleted as a delete leaves it: out of the order's figures.
            await db().updateTable('order_items').set({ is_deleted: 1, deleted_at: now }).where('id', '=', lineId).execute();
            const live = sql<number>`(SELECT COALESCE(SUM(product_price * quantity), 0) FROM order_items WHERE order_id = ${id} AND is_deleted = 0)`;
            await db().updateTable('orders').set({ subtotal: live, total: live }).where('id', '=', id).execute();
          }
          if (c.target === 'missing') lineId = newId();
        });
        const pinOwner =
          c.pin === 'admin'
            ? 'admin'
            : c.pin === 'own'
              ? c.caller
              : c.pin === 'other'
                ? c.caller === 'waiter'
                  ? 'waiter2'
                  : 'waiter'
                : null;
        const pin = pinOwner ? server.users[pinOwner].pin : server.users.admin.pin === '9876' ? '9875' : '9876';
        const accepted = pinOwner !== null && userOf(pinOwner).role === 'admin';
        const verify: VerifyPinInput = {
          pin,
          actorId: caller.id,
          ip: '127.0.0.1',
          purpose: 'delete-item',
          roles: ['admin'],
          ownPinRefused: new AppError(403, 'not_admin_pin', 'own'),
        };
        const limits = pinBudgets(verify);
        const line = await db().selectFrom('order_items').selectAll().where('id', '=', lineId).executeTakeFirst();
        const printed = line
          ? (await db()
              .selectFrom('print_jobs')
              .select('id')
              .where('order_id', '=', orderId)
              .where('kind', 'in', ['comanda', 'reimpresion'])
              .where('document', 'like', `%"itemId":"${lineId}"%`)
              .executeTakeFirst()) !== undefined
          : false;
        const order = await orderFacts(orderId);
        const stationPrinters = line
          ? Number(
              (
                await db()
                  .selectFrom('printers')
                  .select((eb) => eb.fn.countAll<number>().as('n'))
                  .where('enabled', '=', 1)
                  .where('role', '=', line.station)
                  .executeTakeFirstOrThrow()
              ).n,
            )
          : 0;
        const plain = isPlainDelete(caller, order, {
          role: caller.role,
          line: line ? { deleted: line.is_deleted === 1, printed, hasModifiers: line.modifiers !== null, stationPrinters } : null,
        });

        const f = await fast(
          async (trx) =>
            (
              await sql<{
                result: unknown;
              }>`select comanda_quick_delete(null, null, null, ${orderId}, ${lineId}, ${caller.id}, ${caller.displayName}, ${caller.role},
                ${limits.map(([k]) => k)}::text[], ${limits.map(([, r]) => r.windowMs)}::bigint[], ${limits.map(([, r]) => r.limit)}::integer[],
                ${pinHashOf(server.ctx, pin)}, ${['admin']}::text[], ${newId()}, ${now}::bigint, ${newId()},
                ${Array.from({ length: PLAIN_CASE.maxJobs }, newId)}::text[], ${BAR_TABLE_NUMBER}::integer, ${[...PLAIN_CASE.cardStates]}::text[]) as result`.execute(
                trx,
              )
            ).rows[0]!.result,
          orderId,
        );
        let p: Plain;
        try {
          const written = await deleteItemInTypeScript(withoutKey(server.ctx), caller, { orderId, itemId: lineId, pin, ip: '127.0.0.1' });
          const after = await db().selectFrom('orders').select(['subtotal', 'version']).where('id', '=', orderId).executeTakeFirstOrThrow();
          p = {
            answered: { subtotal: Number(after.subtotal), version: Number(after.version), itemId: written.itemIds[0]! },
            rows: await rowsOf(db(), orderId, lineId),
          };
        } catch (error) {
          p = refusal(error);
        }
        // The order is judged before the PIN, on both paths: a PIN is tried only on a plain order.
        if (!isPlainOrder(caller, order)) {
          expect(f, label).toEqual({ handedOver: true });
          return;
        }
        if (!accepted) {
          const outcome = pinOwner === c.caller ? 'own' : 'wrong';
          expect(f, label).toEqual({ pin: outcome });
          expect(p, label).toMatchObject({ refused: { status: 403, code: outcome === 'own' ? 'not_admin_pin' : 'wrong_pin' } });
          return;
        }
        expect('handedOver' in f, label).toBe(!plain);
        if (plain) sameAs(f, p, label);
      }),
      { numRuns: RUNS },
    );
  }, 600_000);
});
