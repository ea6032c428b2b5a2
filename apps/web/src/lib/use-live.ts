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
 */
export function useLiveQueries(
  topics: readonly string[],
  queryKeys: readonly QueryKey[],
  versionOf?: (data: unknown) => number | undefined,
): void {
  const qc = useQueryClient();
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
