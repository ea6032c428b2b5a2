import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { LiveClient } from './live.ts';
import type { OrderTopic } from '@comanda/contract';

class FakeSocket {
  static OPEN = 1;
  static instances: FakeSocket[] = [];
  readyState = 0;
  sent: unknown[] = [];
  onopen: (() => void) | null = null;
  onmessage: ((m: { data: string }) => void) | null = null;
  onclose: ((e: { code: number }) => void) | null = null;
  constructor(readonly url: string) {
    FakeSocket.instances.push(this);
  }
  send(data: string) {
    this.sent.push(JSON.parse(data));
  }
  close() {
    this.readyState = 3;
  }
  open() {
    this.readyState = 1;
    this.onopen?.();
  }
  drop(code = 1006) {
    this.readyState = 3;
    this.onclose?.({ code });
  }
  emit(message: unknown) {
    this.onmessage?.({ data: JSON.stringify(message) });
  }
}

describe('LiveClient', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    FakeSocket.instances = [];
    vi.stubGlobal('WebSocket', FakeSocket);
    vi.stubGlobal('location', { protocol: 'http:', host: 'pos.local' });
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it('subscribes on open and delivers events only to listeners of their topic', () => {
    const client = new LiveClient();
    const board = vi.fn();
    const tables = vi.fn();
    client.subscribe('board', board);
    client.subscribe('tables', tables);
    client.start();
    const socket = FakeSocket.instances[0]!;
    expect(socket.url).toBe('ws://pos.local/api/live');
    socket.open();
    expect(socket.sent).toContainEqual({ op: 'subscribe', topics: ['board', 'tables'] });
    socket.emit({ op: 'event', event: { topic: 'board', type: 'board.updated', id: 'o1', version: 3, at: 1 } });
    expect(board).toHaveBeenCalledWith(expect.objectContaining({ id: 'o1', version: 3 }));
    expect(tables).not.toHaveBeenCalled();
  });

  it('after a dropped connection reconnects with backoff, resubscribes and asks observers to refetch once the topics are live', () => {
    const client = new LiveClient();
    const refetch = vi.fn();
    const statuses: string[] = [];
    client.onResync(refetch);
    client.onStatus((s) => statuses.push(s));
    client.subscribe('orders', () => undefined);
    client.start();
    FakeSocket.instances[0]!.open();
    FakeSocket.instances[0]!.emit({ op: 'subscribed', topics: ['orders'] });
    expect(refetch).toHaveBeenCalledTimes(1);
    FakeSocket.instances[0]!.drop();
    expect(client.status).toBe('closed');
    vi.advanceTimersByTime(15_000);
    const second = FakeSocket.instances[1]!;
    second.open();
    expect(second.sent).toContainEqual({ op: 'subscribe', topics: ['orders'] });
    // A refetch before the server holds the topic could still miss an event: it waits for the answer.
    expect(refetch).toHaveBeenCalledTimes(1);
    second.emit({ op: 'subscribed', topics: ['orders'] });
    expect(refetch).toHaveBeenCalledTimes(2);
    expect(statuses).toEqual(['connecting', 'open', 'closed', 'connecting', 'open']);
  });

  it('on the first connection refetches once every topic of the opening subscribe is confirmed or denied', () => {
    const client = new LiveClient();
    const refetch = vi.fn();
    client.onResync(refetch);
    const topics = Array.from({ length: 60 }, (_, i): OrderTopic => `order:o${i}`);
    for (const t of topics) client.subscribe(t, () => undefined);
    client.start();
    const socket = FakeSocket.instances[0]!;
    socket.open();
    socket.emit({ op: 'subscribed', topics: topics.slice(0, 50) });
    expect(refetch).not.toHaveBeenCalled();
    socket.emit({ op: 'denied', topic: topics[50] });
    socket.emit({ op: 'subscribed', topics: topics.slice(51, 59) });
    expect(refetch).not.toHaveBeenCalled();
    socket.emit({ op: 'subscribed', topics: topics.slice(59) });
    expect(refetch).toHaveBeenCalledTimes(1);
    // A topic added later on the open socket is not a new connection: no refetch of everything.
    client.subscribe('tables', () => undefined);
    socket.emit({ op: 'subscribed', topics: ['tables'] });
    expect(refetch).toHaveBeenCalledTimes(1);
  });

  it('a topic dropped before its confirmation no longer holds the refetch back; with no topics only a reconnect refetches', () => {
    const client = new LiveClient();
    const refetch = vi.fn();
    client.onResync(refetch);
    client.subscribe('board', () => undefined);
    const off = client.subscribe('tables', () => undefined);
    client.start();
    const socket = FakeSocket.instances[0]!;
    socket.open();
    socket.emit({ op: 'subscribed', topics: ['board'] });
    expect(refetch).not.toHaveBeenCalled();
    off();
    expect(refetch).toHaveBeenCalledTimes(1);

    const bare = new LiveClient();
    const bareRefetch = vi.fn();
    bare.onResync(bareRefetch);
    bare.start();
    FakeSocket.instances.at(-1)!.open();
    expect(bareRefetch).not.toHaveBeenCalled();
    FakeSocket.instances.at(-1)!.drop();
    vi.advanceTimersByTime(15_000);
    FakeSocket.instances.at(-1)!.open();
    expect(bareRefetch).toHaveBeenCalledTimes(1);
  });

  it('stops reconnecting and reports the end when the server ends the session', () => {
    const client = new LiveClient();
    const ended = vi.fn();
    client.onSessionEnded(ended);
    client.start();
    FakeSocket.instances[0]!.open();
    FakeSocket.instances[0]!.drop(4401);
    vi.advanceTimersByTime(60_000);
    expect(ended).toHaveBeenCalledTimes(1);
    expect(FakeSocket.instances).toHaveLength(1);
  });

  it('reads again when the server says events may have been missed, without reconnecting', () => {
    const client = new LiveClient();
    const resync = vi.fn();
    const board = vi.fn();
    client.onResync(resync);
    client.subscribe('board', board);
    client.start();
    const socket = FakeSocket.instances[0]!;
    socket.open();
    socket.emit({ op: 'subscribed', topics: ['board'] });
    expect(resync).toHaveBeenCalledTimes(1); // the connection's own
    socket.emit({ op: 'resync' });
    expect(resync).toHaveBeenCalledTimes(2);
    expect(FakeSocket.instances).toHaveLength(1);
    socket.emit({ op: 'event', event: { topic: 'board', type: 'board.updated', id: 'o1', version: 3, at: 1 } });
    expect(board).toHaveBeenCalledTimes(1);
  });

  it('unsubscribes a topic when its last listener leaves', () => {
    const client = new LiveClient();
    client.start();
    const socket = FakeSocket.instances[0]!;
    socket.open();
    const off1 = client.subscribe('products', () => undefined);
    const off2 = client.subscribe('products', () => undefined);
    off1();
    expect(socket.sent).not.toContainEqual({ op: 'unsubscribe', topics: ['products'] });
    off2();
    expect(socket.sent).toContainEqual({ op: 'unsubscribe', topics: ['products'] });
  });
  it('resubscribes in messages of at most 50 topics, as the server accepts', () => {
    const client = new LiveClient();
    const topics = Array.from({ length: 120 }, (_, i): OrderTopic => `order:o${i}`);
    for (const t of topics) client.subscribe(t, () => undefined);
    client.start();
    const socket = FakeSocket.instances[0]!;
    socket.open();
    const sent = socket.sent as { op: string; topics: string[] }[];
    expect(sent.map((m) => m.topics.length)).toEqual([50, 50, 20]);
    expect(sent.flatMap((m) => m.topics)).toEqual(topics);
  });
});
