import type { LiveEvent, LiveServerMessage, Role, SessionUser } from '@comanda/contract';

/** Who may hear which topic. Events carry ids and versions only; data is read over HTTP. */
export function mayHear(role: Role, topic: string): boolean {
  if (topic.startsWith('order:') || topic.startsWith('card-payment:')) return role === 'admin' || role === 'waiter';
  switch (topic) {
    case 'tables':
    case 'products':
    case 'config':
      return true;
    case 'orders':
      return role === 'admin' || role === 'waiter';
    case 'board':
      return role !== 'waiter';
    case 'users':
    case 'terminals':
    case 'tickets':
      return role === 'admin';
    default:
      return false;
  }
}

export interface LiveSocket {
  send(data: string): void;
  close(code?: number, reason?: string): void;
}

interface Client {
  socket: LiveSocket;
  user: SessionUser;
  topics: Set<string>;
}

/** Relays events between processes (PostgreSQL LISTEN/NOTIFY); absent with SQLite. */
export interface LiveBridge {
  send(event: LiveEvent): void;
  close(): Promise<void>;
}

export class LiveHub {
  private readonly clients = new Set<Client>();
  private bridge: LiveBridge | null = null;
  private readonly listeners = new Set<(e: LiveEvent) => void>();

  setBridge(bridge: LiveBridge): void {
    this.bridge = bridge;
  }

  connect(socket: LiveSocket, user: SessionUser): Client {
    const client: Client = { socket, user, topics: new Set() };
    this.clients.add(client);
    return client;
  }

  disconnect(client: Client): void {
    this.clients.delete(client);
  }

  subscribe(client: Client, topics: readonly string[]): string[] {
    const granted: string[] = [];
    for (const topic of topics) {
      if (mayHear(client.user.role, topic)) {
        client.topics.add(topic);
        granted.push(topic);
      } else {
        send(client, { op: 'denied', topic });
      }
    }
    return granted;
  }

  /** Called after commit: delivers here and hands the event to the other processes. */
  publish(event: LiveEvent): void {
    this.deliver(event);
    this.bridge?.send(event);
  }

  /** Delivers an event to this process's sockets (also used by the bridge for remote events). */
  deliver(event: LiveEvent): void {
    const message = JSON.stringify({ op: 'event', event } satisfies LiveServerMessage);
    for (const client of this.clients) {
      if (client.topics.has(event.topic)) client.socket.send(message);
    }
    for (const listener of this.listeners) listener(event);
  }

  /** In-process observers (card payment sessions, tests). */
  onEvent(listener: (e: LiveEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  disconnectUser(userId: string): void {
    for (const client of [...this.clients]) {
      if (client.user.id !== userId) continue;
      send(client, { op: 'bye', reason: 'session-ended' });
      client.socket.close(4401, 'session-ended');
      this.clients.delete(client);
    }
  }

  get size(): number {
    return this.clients.size;
  }

  async close(): Promise<void> {
    for (const client of this.clients) client.socket.close(1001, 'server-shutdown');
    this.clients.clear();
    await this.bridge?.close();
  }
}

function send(client: Client, message: LiveServerMessage): void {
  client.socket.send(JSON.stringify(message));
}
