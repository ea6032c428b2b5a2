import { LIVE_CLOSE, type LiveEvent, type LiveServerMessage, type SessionUser } from '@comanda/contract';
import { mayWorkOrder } from '@comanda/domain';
import { LIVE_LIMITS, type LiveLimits } from './limits.ts';

export { mayHear } from './topic-rights.ts';

/**
 * An event as published inside the server. `owner` marks an order's event with the order's
 * waiter: of the waiters, only that one hears it (admins, kitchen and bar by their topic rights).
 * It is never sent to a browser.
 */
export type HubEvent = LiveEvent & { owner?: string | null };

export interface LiveSocket {
  send(data: string): void;
  close(code?: number, reason?: string): void;
  /** Bytes queued but not yet written (ws); used to drop clients that do not read. */
  readonly bufferedAmount?: number;
}

type CloseReason = (typeof LIVE_CLOSE)[keyof typeof LIVE_CLOSE];

export interface LiveClient {
  socket: LiveSocket;
  user: SessionUser;
  topics: Set<string>;
  closed: boolean;
  /** Closes the socket for a broken limit (set by the route: closes, logs once). */
  kick: (why: CloseReason) => void;
}

/** Relays events between processes (PostgreSQL LISTEN/NOTIFY); absent with SQLite. */
export interface LiveBridge {
  send(event: HubEvent): void;
  close(): Promise<void>;
}

export class LiveHub {
  private readonly clients = new Set<LiveClient>();
  private bridge: LiveBridge | null = null;
  private readonly listeners = new Set<(e: LiveEvent) => void>();

  constructor(private readonly limits: Pick<LiveLimits, 'maxTopics' | 'maxBufferedBytes'> = LIVE_LIMITS) {}

  setBridge(bridge: LiveBridge): void {
    this.bridge = bridge;
  }

  connect(socket: LiveSocket, user: SessionUser, kick?: (why: CloseReason) => void): LiveClient {
    const client: LiveClient = {
      socket,
      user,
      topics: new Set(),
      closed: false,
      kick:
        kick ??
        ((why) => {
          this.disconnect(client);
          safeClose(socket, why.code, why.reason);
        }),
    };
    this.clients.add(client);
    return client;
  }

  disconnect(client: LiveClient): void {
    client.closed = true;
    client.topics.clear();
    this.clients.delete(client);
  }

  /**
   * Adds topics the caller already authorised. A topic held already costs nothing; a new one
   * beyond maxTopics is refused and `overLimit` says the socket must go.
   */
  subscribe(client: LiveClient, topics: readonly string[]): { granted: string[]; overLimit: boolean } {
    const granted: string[] = [];
    for (const topic of topics) {
      if (!client.topics.has(topic)) {
        if (client.topics.size >= this.limits.maxTopics) return { granted, overLimit: true };
        if (!client.closed) client.topics.add(topic);
      }
      granted.push(topic);
    }
    return { granted, overLimit: false };
  }

  unsubscribe(client: LiveClient, topics: readonly string[]): void {
    for (const topic of topics) client.topics.delete(topic);
  }

  /** Called after commit: delivers here and hands the event to the other processes. */
  publish(event: HubEvent): void {
    this.deliver(event);
    try {
      this.bridge?.send(event);
    } catch {
      // The bridge reports its own failures; a lost relay never fails the request that committed.
    }
  }

  /** Delivers an event to this process's sockets (also used by the bridge for remote events). */
  deliver(event: HubEvent): void {
    const { owner, ...wire } = event;
    const message = JSON.stringify({ op: 'event', event: wire } satisfies LiveServerMessage);
    for (const client of this.clients) {
      if (!client.topics.has(event.topic)) continue;
      if (owner !== undefined && client.user.role === 'waiter' && !mayWorkOrder(client.user, owner)) continue;
      this.send(client, message);
    }
    for (const listener of this.listeners) {
      try {
        listener(wire);
      } catch {
        // An observer's bug must not stop delivery to the others.
      }
    }
  }

  /** In-process observers (card payment sessions, tests). */
  onEvent(listener: (e: LiveEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Sends one message to one client; a client that stopped reading is closed instead of buffered forever. */
  send(client: LiveClient, message: LiveServerMessage | string): void {
    if (client.closed) return;
    if ((client.socket.bufferedAmount ?? 0) > this.limits.maxBufferedBytes) {
      client.kick(LIVE_CLOSE.tooSlow);
      return;
    }
    try {
      client.socket.send(typeof message === 'string' ? message : JSON.stringify(message));
    } catch {
      // A socket closing under us: its close handler disconnects it.
    }
  }

  disconnectUser(userId: string): void {
    for (const client of [...this.clients]) {
      if (client.user.id !== userId) continue;
      this.send(client, { op: 'bye', reason: 'session-ended' });
      this.disconnect(client);
      safeClose(client.socket, LIVE_CLOSE.sessionEnded.code, LIVE_CLOSE.sessionEnded.reason);
    }
  }

  /** Every socket here may have missed events from the other processes: each reads again (`resync`). */
  resyncAll(): void {
    const message = JSON.stringify({ op: 'resync' } satisfies LiveServerMessage);
    for (const client of this.clients) this.send(client, message);
  }

  get size(): number {
    return this.clients.size;
  }

  /** 1012 "service restart": browsers reconnect (with backoff) and refetch once the server is back. */
  closeSockets(): void {
    for (const client of this.clients) safeClose(client.socket, 1012, 'service-restart');
    this.clients.clear();
  }

  async close(): Promise<void> {
    this.closeSockets();
    await this.bridge?.close();
  }
}

function safeClose(socket: LiveSocket, code: number, reason: string): void {
  try {
    socket.close(code, reason);
  } catch {
    // Already closed.
  }
}

declare module '../http/context.ts' {
  interface AppContext {
    /** The live hub every feature publishes its events to. */
    live: LiveHub;
  }
}
