import type { LiveEvent, LiveEventOf, LiveServerMessage, LiveTopicName } from '@comanda/contract';

export type LiveStatus = 'connecting' | 'open' | 'closed';
type Listener = (event: LiveEvent) => void;

/**
 * One WebSocket per browser. Topics are reference-counted; on every (re)connect the client
 * resubscribes and tells its observers to refetch, so an event missed while offline is never lost.
 */
export class LiveClient {
  private socket: WebSocket | null = null;
  private readonly topics = new Map<string, Set<Listener>>();
  private readonly statusListeners = new Set<(s: LiveStatus) => void>();
  private readonly reconnectListeners = new Set<() => void>();
  private readonly endedListeners = new Set<() => void>();
  private attempt = 0;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private stopped = true;
  status: LiveStatus = 'closed';

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.open();
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.socket?.close();
    this.socket = null;
    this.setStatus('closed');
  }

  /** Listens to one topic; the server sends only that topic's events, so the listener gets them typed. */
  subscribe<T extends LiveTopicName>(topic: T, listener: (event: LiveEventOf<T>) => void): () => void {
    let set = this.topics.get(topic);
    if (!set) {
      set = new Set();
      this.topics.set(topic, set);
      this.send({ op: 'subscribe', topics: [topic] });
    }
    // Sound: handle() calls a topic's listeners only with that topic's events.
    const stored = listener as Listener;
    set.add(stored);
    return () => {
      const current = this.topics.get(topic);
      current?.delete(stored);
      if (current && current.size === 0) {
        this.topics.delete(topic);
        this.send({ op: 'unsubscribe', topics: [topic] });
      }
    };
  }

  onStatus(listener: (s: LiveStatus) => void): () => void {
    this.statusListeners.add(listener);
    return () => this.statusListeners.delete(listener);
  }

  onReconnect(listener: () => void): () => void {
    this.reconnectListeners.add(listener);
    return () => this.reconnectListeners.delete(listener);
  }

  /** The server ended this session (user deactivated, signed out elsewhere). */
  onSessionEnded(listener: () => void): () => void {
    this.endedListeners.add(listener);
    return () => this.endedListeners.delete(listener);
  }

  private open(): void {
    const url = `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/api/live`;
    this.setStatus('connecting');
    const socket = new WebSocket(url);
    this.socket = socket;
    socket.onopen = () => {
      const wasReconnect = this.attempt > 0;
      this.attempt = 0;
      this.setStatus('open');
      // The server takes at most 50 topics per message.
      const topics = [...this.topics.keys()];
      for (let i = 0; i < topics.length; i += 50) this.send({ op: 'subscribe', topics: topics.slice(i, i + 50) });
      if (wasReconnect) for (const l of this.reconnectListeners) l();
    };
    socket.onmessage = (msg) => this.handle(msg.data as string);
    socket.onclose = (ev) => {
      this.socket = null;
      this.setStatus('closed');
      if (ev.code === 4401) {
        for (const l of this.endedListeners) l();
        return;
      }
      this.scheduleReconnect();
    };
  }

  private scheduleReconnect(): void {
    if (this.stopped) return;
    this.attempt += 1;
    // Exponential backoff with jitter, capped at 10 s: a flaky Wi-Fi reconnects fast, a dead server is not hammered.
    const delay = Math.min(10_000, 300 * 2 ** Math.min(this.attempt, 6)) * (0.75 + Math.random() * 0.5);
    this.timer = setTimeout(() => this.open(), delay);
  }

  private handle(raw: string): void {
    let msg: LiveServerMessage;
    try {
      msg = JSON.parse(raw) as LiveServerMessage;
    } catch {
      return;
    }
    if (msg.op === 'event') for (const l of this.topics.get(msg.event.topic) ?? []) l(msg.event);
    else if (msg.op === 'bye') for (const l of this.endedListeners) l();
  }

  private send(message: unknown): void {
    if (this.socket?.readyState === WebSocket.OPEN) this.socket.send(JSON.stringify(message));
  }

  private setStatus(status: LiveStatus): void {
    this.status = status;
    for (const l of this.statusListeners) l(status);
  }
}

export const liveClient = new LiveClient();
