import { Socket } from 'node:net';

/** DLE EOT 1 (printer status) and DLE EOT 4 (paper roll sensor): answered in real time, one byte each. */
export const STATUS_REQUEST = Uint8Array.from([0x10, 0x04, 0x01, 0x10, 0x04, 0x04]);

export interface PrinterStatusBytes {
  online: boolean;
  paperOut: boolean;
}

export function parseStatus(printer: number, paper: number): PrinterStatusBytes {
  return { online: (printer & 0x08) === 0, paperOut: (paper & 0x60) !== 0 };
}

export class PrintError extends Error {
  constructor(
    message: string,
    /** 'sin_conexion': could not reach it; 'error': reached it but it cannot print (paper, offline). */
    readonly status: 'sin_conexion' | 'error',
    /** Bytes of the job may have reached the printer (the outcome is unknown). */
    readonly maybeDelivered: boolean,
  ) {
    super(message);
  }
}

export interface SendOptions {
  host: string;
  port: number;
  /** Connect, each status answer and the final flush each get this long. */
  timeoutMs: number;
}

/**
 * Delivers one job over raw TCP (port 9100). Before the job it asks the printer's status
 * (refusing to send to a printer that is offline or out of paper); after the job it asks again:
 * TCP is in order, so the answer to a request sent after the last byte proves the printer has
 * received every byte of the job. A printer that never answers status requests is accepted
 * after a clean close instead. Resolves only when the job is known to be delivered.
 */
export function sendJob(opts: SendOptions, job: Uint8Array): Promise<{ acknowledged: boolean }> {
  return new Promise((resolve, reject) => {
    const socket = new Socket();
    let buffered = Buffer.alloc(0);
    let phase: 'connect' | 'status' | 'job' | 'closing' | 'done' = 'connect';
    let statusSupported = true;
    let jobWritten = false;
    let timer: NodeJS.Timeout | null = null;
    let waiter: (() => void) | null = null;
    const fail = (message: string, status: 'sin_conexion' | 'error') => {
      if (phase === 'done') return;
      const maybeDelivered = jobWritten;
      phase = 'done';
      if (timer) clearTimeout(timer);
      socket.destroy();
      reject(new PrintError(message, status, maybeDelivered));
    };
    const succeed = (acknowledged: boolean) => {
      if (phase === 'done') return;
      phase = 'done';
      if (timer) clearTimeout(timer);
      resolve({ acknowledged });
    };
    const arm = (ms: number, onTimeout: () => void) => {
      if (timer) clearTimeout(timer);
      timer = setTimeout(onTimeout, ms);
    };
    const wantBytes = (n: number, then: (bytes: Buffer) => void, onTimeout: () => void) => {
      const check = () => {
        if (buffered.length >= n) {
          const bytes = buffered.subarray(0, n);
          buffered = buffered.subarray(n);
          waiter = null;
          if (timer) clearTimeout(timer);
          then(bytes);
        }
      };
      waiter = check;
      arm(opts.timeoutMs, onTimeout);
      check();
    };
    const finish = () => {
      phase = 'closing';
      arm(opts.timeoutMs, () => fail('La impresora no cerró la conexión a tiempo', 'sin_conexion'));
      socket.end(() => {
        // Our FIN went out after every byte: the job is flushed.
        socket.destroy();
        succeed(!!statusSupported);
      });
    };
    socket.setNoDelay(true);
    socket.on('data', (d: Buffer) => {
      buffered = Buffer.concat([buffered, d]);
      waiter?.();
    });
    socket.on('error', (e: NodeJS.ErrnoException) =>
      fail(
        phase === 'connect' ? `No se pudo conectar (${e.code ?? e.message})` : `Conexión interrumpida (${e.code ?? e.message})`,
        'sin_conexion',
      ),
    );
    socket.on('close', () => {
      if (phase === 'closing') return;
      fail('La impresora cerró la conexión antes de terminar', 'sin_conexion');
    });
    arm(opts.timeoutMs, () => fail('Tiempo de conexión agotado', 'sin_conexion'));
    socket.connect(opts.port, opts.host, () => {
      phase = 'status';
      socket.write(STATUS_REQUEST);
      wantBytes(
        2,
        (bytes) => {
          const status = parseStatus(bytes[0]!, bytes[1]!);
          if (status.paperOut) return fail('Sin papel', 'error');
          if (!status.online) return fail('Impresora fuera de línea', 'error');
          phase = 'job';
          jobWritten = true;
          socket.write(job);
          socket.write(STATUS_REQUEST);
          wantBytes(
            2,
            () => finish(),
            () => fail('La impresora no confirmó la recepción', 'sin_conexion'),
          );
        },
        () => {
          // No status support: send the job and trust a clean close.
          statusSupported = false;
          phase = 'job';
          jobWritten = true;
          socket.write(job, () => finish());
        },
      );
    });
  });
}

/** Asks a printer for its status only (the settings screen's "probar conexión"). */
export function queryStatus(opts: SendOptions): Promise<PrinterStatusBytes> {
  return new Promise((resolve, reject) => {
    const socket = new Socket();
    let buffered = Buffer.alloc(0);
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new PrintError('Tiempo de conexión agotado', 'sin_conexion', false));
    }, opts.timeoutMs);
    socket.on('error', (e: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      reject(new PrintError(`No se pudo conectar (${e.code ?? e.message})`, 'sin_conexion', false));
    });
    socket.on('data', (d: Buffer) => {
      buffered = Buffer.concat([buffered, d]);
      if (buffered.length >= 2) {
        clearTimeout(timer);
        socket.destroy();
        resolve(parseStatus(buffered[0]!, buffered[1]!));
      }
    });
    socket.connect(opts.port, opts.host, () => socket.write(STATUS_REQUEST));
  });
}
