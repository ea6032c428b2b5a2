import { parentPort } from 'node:worker_threads';
import type { PrintDocument } from '../../model/printing/documents.ts';
import { renderDocument, type RenderOptions } from './render.ts';

/**
 * The render thread's entry (render-thread.ts): documents in, printer bytes out, in the order given.
 * The receipt encoder is the print worker's costliest step (~35 µs a comanda): here it runs beside
 * the server's event loop instead of on it.
 */
export interface RenderRequest {
  id: number;
  items: { doc: PrintDocument; opts: RenderOptions }[];
}
export type RenderReply = { id: number; parts: Uint8Array[] } | { id: number; error: string };

parentPort?.on('message', ({ id, items }: RenderRequest) => {
  let reply: RenderReply;
  try {
    reply = { id, parts: items.map(({ doc, opts }) => renderDocument(doc, opts)) };
  } catch (error) {
    reply = { id, error: String(error) };
  }
  parentPort?.postMessage(reply);
});
