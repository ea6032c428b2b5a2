import { createServer, type Server, type Socket } from 'node:net';
import { decodeEscPos } from '../escpos-decoder.ts';

/**
 * A network thermal printer on loopback, for demo mode and tests: accepts ESC/POS on a TCP port,
 * answers real-time status requests (DLE EOT n) from a state tests can steer, and keeps the last
 * tickets it received as decoded text.
 */
export type EmulatorState = 'online' | 'paper-out' | 'offline';

export interface ReceivedTicket {
  /** Order of arrival at this printer, from 1. */
  n: number;
  text: string;
  complete: boolean;
  pulses: number;
  /** When the ticket's last byte arrived (epoch ms). */
  at: number;
}

export interface EmulatorOptions {
  name: string;
  host?: string;
  /** 0 for an ephemeral port. */
  port?: number;
  /** How many tickets to keep (default 50). */
  keep?: number;
}

const CUT = 0x1d;

export class PrinterEmulator {
  readonly name: string;
  state: EmulatorState = 'online';
  /** When set, the next connection that receives job bytes is closed after this many of them. */
  dropAfterBytes: number | null = null;
  /** When false the printer ignores status requests (some cheap printers do). */
  answersStatus = true;
  /**
   * When true, status requests that follow job bytes go unanswered: the printer got (and
   * printed) the job but its acknowledgement never comes back, the "uncertain" case.
   */
  withholdAck = false;
  private server: Server | null = null;
  private readonly sockets = new Set<Socket>();
  private readonly tickets: ReceivedTicket[] = [];
  private received = 0;
  private listeners = new Set<(t: ReceivedTicket) => void>();
  private readonly keep: number;
  private host: string;
  port: number;

  constructor(opts: EmulatorOptions) {
    this.name = opts.name;
    this.host = opts.host ?? '127.0.0.1';
    this.port = opts.port ?? 0;
    this.keep = opts.keep ?? 50;
  }

  get url(): string {
    return `tcp://${this.host}:${this.port}`;
  }

  get listening(): boolean {
    return this.server !== null;
  }

  /** Starts listening (again, on the same port after the first start). */
  async start(): Promise<void> {
    if (this.server) return;
    const server = createServer((socket) => this.accept(socket));
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.port, this.host, () => resolve());
    });
    const address = server.address();
    if (typeof address === 'object' && address) this.port = address.port;
    this.server = server;
  }

  /** Switched off: stops listening and drops open connections (the port refuses connections). */
  async stop(): Promise<void> {
    const server = this.server;
    this.server = null;
    for (const s of this.sockets) s.destroy();
    this.sockets.clear();
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  /** Newest last. */
  list(): ReceivedTicket[] {
    return [...this.tickets];
  }

  clear(): void {
    this.tickets.length = 0;
  }

  onTicket(listener: (t: ReceivedTicket) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private statusByte(n: number): number {
    if (n === 1) return this.state === 'offline' ? 0x1a : 0x12;
    if (n === 4) return this.state === 'paper-out' ? 0x72 : 0x12;
    if (n === 2) return this.state === 'paper-out' ? 0x32 : this.state === 'offline' ? 0x16 : 0x12;
    return 0x12;
  }

  private accept(socket: Socket): void {
    this.sockets.add(socket);
    socket.setNoDelay(true);
    let pending = Buffer.alloc(0);
    let jobBytes = 0;
    let dropAt = this.dropAfterBytes;
    const flushTickets = (final: boolean) => {
      // Everything up to the last cut is complete tickets; the rest waits for more bytes.
      let lastCut = -1;
      for (let i = 0; i + 2 < pending.length; i++) if (pending[i] === CUT && pending[i + 1] === 0x56) lastCut = i;
      const upto = final ? pending.length : lastCut >= 0 ? lastCut + 3 : 0;
      if (!upto) return;
      const chunk = pending.subarray(0, upto);
      pending = pending.subarray(upto);
      // A ticket ends at its cut: carry over the page/initialize state by decoding per chunk.
      for (const t of decodeEscPos(chunk)) {
        if (!t.text && !t.pulses) continue;
        this.record({ text: t.text, complete: t.complete, pulses: t.pulses });
      }
    };
    socket.on('data', (data: Buffer) => {
      // Bytes are handled in arrival order: a status request is answered when reached, so a
      // printer that drops the connection mid-job never answers the request that followed it.
      if (dropAt === null && this.dropAfterBytes !== null) dropAt = this.dropAfterBytes;
      const kept: number[] = [];
      for (let i = 0; i < data.length; i++) {
        if (data[i] === 0x10 && data[i + 1] === 0x04 && i + 2 < data.length) {
          if (this.answersStatus && !(this.withholdAck && jobBytes > 0)) socket.write(Uint8Array.of(this.statusByte(data[i + 2]!)));
          i += 2;
          continue;
        }
        if (dropAt !== null && jobBytes >= dropAt) {
          this.dropAfterBytes = null;
          pending = Buffer.concat([pending, Buffer.from(kept)]);
          flushTickets(true);
          pending = Buffer.alloc(0);
          socket.destroy();
          return;
        }
        kept.push(data[i]!);
        jobBytes++;
      }
      pending = Buffer.concat([pending, Buffer.from(kept)]);
      flushTickets(false);
    });
    socket.on('close', () => {
      this.sockets.delete(socket);
      flushTickets(true);
    });
    socket.on('error', () => undefined);
  }

  private record(t: Omit<ReceivedTicket, 'n' | 'at'>): void {
    const ticket = { ...t, n: ++this.received, at: Date.now() };
    this.tickets.push(ticket);
    if (this.tickets.length > this.keep) this.tickets.splice(0, this.tickets.length - this.keep);
    for (const l of this.listeners) l(ticket);
  }
}
