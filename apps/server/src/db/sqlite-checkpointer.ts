import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/**
 * SQLite's checkpoints on a thread of their own (decision 0041).
 *
 * In WAL mode every commit appends pages to the log, and a checkpoint copies them back into the
 * database file: by default the connection that commits does it, inside the COMMIT that takes the
 * log past 1,000 pages, so the event loop read and rewrote every page of the log and flushed the
 * file twice (under load, about 5 page reads and writes per item add). Here a second connection,
 * on a worker thread, checkpoints every few milliseconds in PASSIVE mode: it copies whatever is
 * committed without waiting for, or blocking, the server's writes, and flushes the file before it
 * counts a page as copied. The server's connection keeps its own automatic checkpoint: it finds the
 * pages already copied, and it is still there if this thread stops.
 */
export interface Checkpointer {
  /**
   * Pages of the log found copied into the database file at this thread's passes so far: its own
   * copies, and the few the server's connection made in between (a count to watch, not an audit).
   */
  readonly pages: number;
  stop(): Promise<void>;
}

// The worker is plain CommonJS evaluated from this text: the built server is one bundle, and a
// worker of its own would be a second entry point for the bundler to know of.
const WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const SQLite = require(workerData.driver);
const db = new SQLite(workerData.file, { fileMustExist: true });
db.pragma('synchronous = FULL');
let stopped = false;
const pass = () => {
  if (stopped) return;
  try {
    const [result] = db.pragma('wal_checkpoint(PASSIVE)');
    if (result && result.checkpointed > 0) parentPort.postMessage(result.checkpointed);
  } catch {
    // busy (the server's connection is checkpointing) or a passing I/O error: the next pass tries again
  }
  timer = setTimeout(pass, workerData.everyMs);
};
let timer = setTimeout(pass, workerData.everyMs);
parentPort.on('message', () => {
  stopped = true;
  clearTimeout(timer);
  db.close();
  parentPort.close();
});
`;

export function startCheckpointer(file: string, everyMs = 20): Checkpointer {
  const driver = createRequire(import.meta.url).resolve('better-sqlite3');
  const worker = new Worker(WORKER, { eval: true, workerData: { file, driver, everyMs } });
  let pages = 0;
  let lastPass = 0;
  worker.on('message', (copied: number) => {
    // PASSIVE reports the log's frames copied so far in this log: count what is new since the last pass.
    pages += copied >= lastPass ? copied - lastPass : copied;
    lastPass = copied;
  });
  // The server's own automatic checkpoint still runs: an error here must not take the server down.
  worker.on('error', () => undefined);
  worker.unref();
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  return {
    get pages() {
      return pages;
    },
    async stop() {
      // Held by the process until it has closed its connection (or is terminated): an unreferenced
      // worker and timer would let a process with nothing else to do exit in the middle of this await.
      worker.ref();
      worker.postMessage('stop');
      const timeout = setTimeout(() => void worker.terminate(), 2000);
      await exited;
      clearTimeout(timeout);
    },
  };
}
