import { Worker } from 'node:worker_threads';
import { afterEach, describe, expect, it } from 'vitest';
import type { PrintDocument } from '../../model/printing/documents.ts';
import { renderInPlace, startRenderer, type Renderer } from './render-thread.ts';
import type { RenderOptions } from './render.ts';

const comanda = (n: number): { doc: PrintDocument; opts: RenderOptions } => ({
  doc: {
    type: 'comanda',
    station: 'cocina',
    table: `Mesa ${n}`,
    waiter: 'Ana López',
    guests: 4,
    orderShortId: 'a1b2c3',
    at: Date.UTC(2026, 10, 27, 3, 15),
    lines: [{ itemId: `i${n}`, quantity: n, name: 'Tacos al pastor', notes: 'sin cebolla, con piña', modifiers: ['Tortilla de harina'] }],
  },
  opts: { width: n % 2 ? 80 : 58, jobNumber: 100 + n, resend: n === 3, timeZone: 'America/Mexico_City' },
});

describe('print documents rendered on a thread of their own', () => {
  let renderer: Renderer | undefined;
  afterEach(async () => {
    await renderer?.close();
  });

  it('renders on the thread the same bytes as in place, in the order given', async () => {
    renderer = startRenderer();
    const items = [1, 2, 3, 4].map(comanda);
    const threaded = await renderer.render(items);
    expect(renderer.threaded).toBe(true);
    const here = renderInPlace(items);
    expect(threaded.map((b) => Buffer.from(b).toString('hex'))).toEqual(here.map((b) => Buffer.from(b).toString('hex')));
    expect(Buffer.from(threaded[2]!).toString('latin1')).toContain('REENV');
  });

  it('renders in place, the same bytes, when the thread cannot start or stops', async () => {
    renderer = startRenderer(() => new Worker('throw new Error("no thread")', { eval: true }));
    const items = [comanda(1), comanda(2)];
    expect((await renderer.render(items)).map((b) => Buffer.from(b).toString('hex'))).toEqual(
      renderInPlace(items).map((b) => Buffer.from(b).toString('hex')),
    );
    expect(renderer.threaded).toBe(false);
  });
});
