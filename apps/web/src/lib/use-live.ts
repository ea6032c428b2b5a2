import { useEffect, useRef, useSyncExternalStore } from 'react';
import { useQueryClient, type QueryKey } from '@tanstack/react-query';
import type { LiveEventOf, LiveTopicName } from '@comanda/contract';
import { liveClient, type LiveStatus } from './live.ts';

/**
 * Calls onEvent for each event of the topics while the component is mounted. Topics and the
 * event types onEvent compares against are typed by the contract (live-events.ts).
 */
export function useLiveTopics<T extends LiveTopicName>(topics: readonly T[], onEvent: (e: LiveEventOf<T>) => void): void {
  const handler = useRef(onEvent);
  handler.current = onEvent;
  const key = topics.join('|');
  useEffect(() => {
    const offs = key
      .split('|')
      .filter(Boolean)
      .map((topic) => liveClient.subscribe(topic as T, (e) => handler.current(e)));
    return () => offs.forEach((off) => off());
  }, [key]);
}

/**
 * Keeps queries current: refetches them when an event of a topic arrives, unless the cached
 * copy already carries that version or a newer one.
 *
 * The events reach a query only while a screen using it is mounted. When the screen goes away
 * (the waiter opens a table and adds items), its cached copy stops hearing them but would still
 * count as fresh for the default staleTime, so coming back within it showed the old totals with
 * no refetch. So on unmount the queries are marked stale (no request is made): the next screen
 * that mounts them refetches at once.
 */
export function useLiveQueries(
  topics: readonly LiveTopicName[],
  queryKeys: readonly QueryKey[],
  versionOf?: (data: unknown) => number | undefined,
  settleMs = 0,
): void {
  const qc = useQueryClient();
  useStaleOnUnmount(queryKeys);
  useLiveTopics(topics, (event) => {
    for (const queryKey of queryKeys) {
      const current = () => {
        if (!versionOf || event.version === undefined) return false;
        const cached = versionOf(qc.getQueryData(queryKey));
        return cached !== undefined && cached >= event.version;
      };
      if (current()) continue;
      // With settleMs, a versioned event waits that long first: this screen's own write answers
      // with the new version and then nothing needs reading.
      if (settleMs > 0 && versionOf && event.version !== undefined) {
        setTimeout(() => {
          if (!current()) void qc.invalidateQueries({ queryKey });
        }, settleMs);
      } else void qc.invalidateQueries({ queryKey });
    }
  });
}

/**
 * Keeps one query current from the events of its topics: `patch` returns the cached data updated
 * from the event alone, or null when the query must be read again. While a read is in flight the
 * query is read again instead (the read, older than the event, would overwrite the patch). Marked
 * stale on unmount, as useLiveQueries does.
 */
export function useLivePatchedQuery<T extends LiveTopicName, D>(
  topics: readonly T[],
  queryKey: QueryKey,
  patch: (cached: D | undefined, event: LiveEventOf<T>) => D | null,
): void {
  const qc = useQueryClient();
  useStaleOnUnmount([queryKey]);
  useLiveTopics(topics, (event) => {
    const cached = qc.getQueryData<D>(queryKey);
    const next = qc.isFetching({ queryKey, exact: true }) > 0 ? null : patch(cached, event);
    if (next === null) void qc.invalidateQueries({ queryKey, exact: true });
    else if (next !== cached) qc.setQueryData<D>(queryKey, next);
  });
}

/** Marks the queries stale when the screen using them goes away (no request is made): the next screen to mount them reads at once. */
function useStaleOnUnmount(queryKeys: readonly QueryKey[]): void {
  const qc = useQueryClient();
  const keys = JSON.stringify(queryKeys);
  useEffect(
    () => () => {
      for (const queryKey of JSON.parse(keys) as QueryKey[]) void qc.invalidateQueries({ queryKey, exact: true, refetchType: 'none' });
    },
    [keys, qc],
  );
}

export function useLiveStatus(): LiveStatus {
  return useSyncExternalStore(
    (cb) => liveClient.onStatus(cb),
    () => liveClient.status,
  );
}
