import { Worker } from 'node:worker_threads';
import type { PrintDocument } from '../../model/printing/documents.ts';
import { renderDocument, type RenderOptions } from './render.ts';
import type { RenderReply, RenderRequest } from './render-worker.ts';

/**
 * Print documents rendered on a thread of their own (decision 0041, issue 20 item 3).
 *
 * The print worker renders every job it delivers into the printer's bytes; with the receipt encoder
 * that is ~35 µs a comanda, on the event loop that answers the phones. Here a worker thread does it.
 * When the thread cannot start (the test runner loads TypeScript only in its own thread) or dies, the
 * documents are rendered where they are asked for, as before: the bytes are the same either way.
 */
export interface Renderer {
  render(items: { doc: PrintDocument; opts: RenderOptions }[]): Promise<Uint8Array[]>;
  /** Whether the thread renders (false: rendered in place). */
  readonly threaded: boolean;
  close(): Promise<void>;
}

/**
 * The render thread: in the built server, the bundle's render-worker.js beside main.js; from source
 * (tsx, the test runner), render-worker.ts, with tsx's loader registered in the thread first (a
 * worker does not inherit the loader of the thread that starts it).
 */
function spawnWorker(): Worker {
  if (!import.meta.url.endsWith('.ts')) return new Worker(new URL('./render-worker.js', import.meta.url));
  const tsx = import.meta.resolve('tsx/esm/api');
  const entry = new URL('./render-worker.ts', import.meta.url).href;
  const code = `import(${JSON.stringify(tsx)}).then(({ register }) => { register(); return import(${JSON.stringify(entry)}); });`;
  return new Worker(code, { eval: true });
}

/** The same bytes, rendered on the calling thread. */
export const renderInPlace = (items: { doc: PrintDocument; opts: RenderOptions }[]): Uint8Array[] =>
  items.map(({ doc, opts }) => renderDocument(doc, opts));

export function startRenderer(spawn: () => Worker = spawnWorker): Renderer {
  let worker: Worker | null = null;
  const waiting = new Map<number, { resolve: (parts: Uint8Array[]) => void; reject: (error: Error) => void }>();
  let next = 0;
  const fail = (error: Error) => {
    worker = null;
    for (const w of waiting.values()) w.reject(error);
    waiting.clear();
  };
  try {
    worker = spawn();
    worker.unref();
    worker.on('message', (reply: RenderReply) => {
      const w = waiting.get(reply.id);
      if (!w) return;
      waiting.delete(reply.id);
      if ('error' in reply) w.reject(new Error(reply.error));
      else w.resolve(reply.parts.map((p) => new Uint8Array(p.buffer, p.byteOffset, p.byteLength)));
    });
    worker.on('error', (error) => fail(error));
    worker.on('exit', () => fail(new Error('the render thread stopped')));
  } catch {
    worker = null;
  }
  return {
    get threaded() {
      return worker !== null;
    },
    async render(items) {
      const thread = worker;
      if (!thread) return renderInPlace(items);
      const id = next++;
      try {
        return await new Promise<Uint8Array[]>((resolve, reject) => {
          waiting.set(id, { resolve, reject });
          thread.postMessage({ id, items } satisfies RenderRequest);
        });
      } catch {
        // The thread could not render these (it failed to start, it stopped, or a document made the
        // encoder throw): render them here, where such a document throws as it always did.
        return renderInPlace(items);
      }
    },
    async close() {
      const thread = worker;
      worker = null;
      await thread?.terminate();
    },
  };
}
