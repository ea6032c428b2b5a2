import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

/** The browser's window events and the live client's status, driven by hand. */
async function load(onLine: { value: boolean }) {
  vi.resetModules();
  const events = new EventTarget();
  vi.stubGlobal('window', events);
  vi.stubGlobal('navigator', {
    get onLine() {
      return onLine.value;
    },
  });
  // The health probe never answers while the browser is offline.
  vi.stubGlobal(
    'fetch',
    vi.fn(async () => {
      if (!onLine.value) throw new TypeError('Failed to fetch');
      return new Response('{}', { status: 200 });
    }),
  );
  const { connection } = await import('./connection.ts');
  const { liveClient } = await import('./live.ts');
  const statusListeners: ((s: string) => void)[] = [];
  vi.spyOn(liveClient, 'onStatus').mockImplementation((l) => {
    statusListeners.push(l as (s: string) => void);
    return () => true;
  });
  connection.subscribe(() => undefined); // wires the listeners
  return { connection, events, socket: (s: string) => statusListeners.forEach((l) => l(s)) };
}

describe('connection', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  it('a live socket that opens after the browser went offline does not hide the offline state', async () => {
    const onLine = { value: true };
    const { connection, events, socket } = await load(onLine);
    onLine.value = false;
    events.dispatchEvent(new Event('offline'));
    expect(connection.get()).toBe('offline');
    socket('open');
    await vi.advanceTimersByTimeAsync(100);
    expect(connection.get()).toBe('offline');
  });

  it('a live socket that opens while the browser is online reports the server reachable at once', async () => {
    const onLine = { value: true };
    const { connection, socket } = await load(onLine);
    connection.reportFailure();
    expect(connection.get()).toBe('offline');
    socket('open');
    expect(connection.get()).toBe('online');
  });
});
