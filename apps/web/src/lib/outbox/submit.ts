import { ApiError } from '../api.ts';
import { connection } from '../connection.ts';
import { t } from '../i18n/es-MX.ts';
import { newId } from '../ids.ts';
import { outbox, type Draft } from './outbox.ts';
import { sendEntry } from './send.ts';

export type Submitted<T> = { queued: false; body: T } | { queued: true };

/**
 * Sends an action that may wait for the network. Online and with nothing queued before it, it
 * goes at once (under a fresh Idempotency-Key) and the caller gets the answer; offline, behind
 * queued actions, or when the request gets no answer, it goes into the outbox under that same
 * key, so a request that did reach the server is not written twice when the outbox resends it.
 */
export async function submitOrQueue<T>(draft: Draft): Promise<Submitted<T>> {
  if (!outbox.user) return { queued: false, body: (await sendDirect(newId(), draft)) as T };
  if (connection.isOffline() || outbox.hasPending()) {
    await outbox.enqueue(draft);
    return { queued: true };
  }
  const id = newId();
  const outcome = await sendEntry({ id, ...draft });
  if (outcome.kind === 'sent') return { queued: false, body: outcome.body as T };
  if (outcome.kind === 'refused') throw new ApiError(outcome.status, outcome.code, outcome.message || t.app.unexpected);
  if (outcome.kind === 'signed-out') throw new ApiError(401, 'unauthorized', t.app.forbidden);
  if (outcome.network) connection.reportFailure();
  await outbox.enqueue(draft, id);
  return { queued: true };
}

async function sendDirect(id: string, draft: Draft): Promise<unknown> {
  const outcome = await sendEntry({ id, ...draft });
  if (outcome.kind === 'sent') return outcome.body;
  if (outcome.kind === 'refused') throw new ApiError(outcome.status, outcome.code, outcome.message || t.app.unexpected);
  throw new ApiError(0, 'network', t.app.unavailable);
}
