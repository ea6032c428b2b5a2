import type { LiveEvent, LiveEventOf, LiveServerMessage, LiveTopicName } from '@comanda/contract';

export type LiveStatus = 'connecting' | 'open' | 'closed';
type Listener = (event: LiveEvent) => void;

/**
 * One WebSocket per browser. Topics are reference-counted; on every connection, the first one
 * too, the client subscribes to the topics it holds and, once the server has confirmed them all,
 * tells its observers to refetch: what a screen read before that moment (the first data inlined
 * in the page, a read made while the socket was connecting, or before the Wi-Fi dropped) may have
 * missed an event, and after it no event is missed.
 */
export class LiveClient {
  private socket: WebSocket | null = null;
  private readonly topics = new Map<string, Set<Listener>>();
  private readonly statusListeners = new Set<(s: LiveStatus) => void>();
  private readonly resyncListeners = new Set<() => void>();
  /** Topics of this connection's opening subscribe not yet confirmed (or denied) by the server. */
  private readonly awaitingAck = new Set<string>();
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
        this.acknowledged(topic);
        this.send({ op: 'unsubscribe', topics: [topic] });
      }
    };
  }

  onStatus(listener: (s: LiveStatus) => void): () => void {
    this.statusListeners.add(listener);
    return () => this.statusListeners.delete(listener);
  }

  /** After each connection, once its topics are live on the server: refetch what was read before. */
  onResync(listener: () => void): () => void {
    this.resyncListeners.add(listener);
    return () => this.resyncListeners.delete(listener);
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
      this.awaitingAck.clear();
      for (const topic of topics) this.awaitingAck.add(topic);
      for (let i = 0; i < topics.length; i += 50) this.send({ op: 'subscribe', topics: topics.slice(i, i + 50) });
      // Nothing to confirm: after a drop the screens still refetch what they missed.
      if (topics.length === 0 && wasReconnect) this.resync();
    };
    socket.onmessage = (msg) => this.handle(msg.data as string);
    socket.onclose = (ev) => {
      this.socket = null;
      this.awaitingAck.clear();
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
    else if (msg.op === 'subscribed') for (const topic of msg.topics) this.acknowledged(topic);
    else if (msg.op === 'denied') this.acknowledged(msg.topic);
    else if (msg.op === 'bye') for (const l of this.endedListeners) l();
    else if (msg.op === 'resync') this.resync();
  }

  /** One topic of the opening subscribe is settled; the last one settles the connection. */
  private acknowledged(topic: string): void {
    if (!this.awaitingAck.delete(topic) || this.awaitingAck.size > 0) return;
    this.resync();
  }

  private resync(): void {
    for (const l of this.resyncListeners) l();
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
