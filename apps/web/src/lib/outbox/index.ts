export { outbox, type Draft } from './outbox.ts';
export { submitOrQueue, type Submitted } from './submit.ts';
export { useOutboxEntries } from './use-outbox.ts';
export type { OutboxEntry, PendingPreview } from './store.ts';
