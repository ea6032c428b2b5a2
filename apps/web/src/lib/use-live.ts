import { useEffect, useRef, useSyncExternalStore } from 'react';
import { useQueryClient, type QueryKey } from '@tanstack/react-query';
import type { LiveEvent } from '@comanda/contract';
import { liveClient, type LiveStatus } from './live.ts';

/** Calls onEvent for each event of the topics while the component is mounted. */
export function useLiveTopics(topics: readonly string[], onEvent: (e: LiveEvent) => void): void {
  const handler = useRef(onEvent);
  handler.current = onEvent;
  const key = topics.join('|');
  useEffect(() => {
    const offs = key
      .split('|')
      .filter(Boolean)
      .map((topic) => liveClient.subscribe(topic, (e) => handler.current(e)));
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
  topics: readonly string[],
  queryKeys: readonly QueryKey[],
  versionOf?: (data: unknown) => number | undefined,
): void {
  const qc = useQueryClient();
  const keys = JSON.stringify(queryKeys);
  useEffect(
    () => () => {
      for (const queryKey of JSON.parse(keys) as QueryKey[]) void qc.invalidateQueries({ queryKey, exact: true, refetchType: 'none' });
    },
    [keys, qc],
  );
  useLiveTopics(topics, (event) => {
    for (const queryKey of queryKeys) {
      if (versionOf && event.version !== undefined) {
        const cached = versionOf(qc.getQueryData(queryKey));
        if (cached !== undefined && cached >= event.version) continue;
      }
      void qc.invalidateQueries({ queryKey });
    }
  });
}

export function useLiveStatus(): LiveStatus {
  return useSyncExternalStore(
    (cb) => liveClient.onStatus(cb),
    () => liveClient.status,
  );
}
