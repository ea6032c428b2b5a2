import { useSyncExternalStore } from 'react';
import { outbox } from './outbox.ts';
import type { OutboxEntry } from './store.ts';

const all = () => outbox.snapshot();

/** The signed-in user's outbox (pending and "no enviado"), re-rendered on every change. */
export function useOutboxEntries(): OutboxEntry[] {
  const entries = useSyncExternalStore(outbox.subscribe, all, all);
  return entries.filter((e) => e.userId === outbox.user);
}
