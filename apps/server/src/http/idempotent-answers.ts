import type { Db } from '../db/connect.ts';
import { transact } from '../db/transact.ts';
import { storeRawResponse, storeRawResponses } from './idempotency.ts';

export interface KeptAnswer {
  statusCode: number;
  json: string;
}

/**
 * The answers of keyed writes, kept after they are sent and written several to a commit.
 *
 * The write itself commits with its key's claim (transaction.ts); its answer is only what a retry
 * replays. Writing each answer in a commit of its own cost every keyed write a second durable
 * commit (on SQLite, a second fsync on the event loop) before the answer could leave. Now the
 * answer leaves at once and is written with whatever others arrived meanwhile. Until that commit a
 * repeat of the key in this process is answered from here; a repeat reaching another process in
 * those milliseconds meets the claim without an answer (409, as between any commit and its
 * answer). A crash in that moment loses the answer, not the write: retries learn it was applied.
 * On PostgreSQL the answers go in one statement, a single round trip whose commit does not wait for
 * the disk (no BEGIN and COMMIT of their own); on SQLite in one transaction, which joins the open
 * commit group.
 */
export class AnswerStore {
  private queued = new Map<string, KeptAnswer>();
  private writing = new Map<string, KeptAnswer>();
  private chain: Promise<void> = Promise.resolve();
  private scheduled = false;

  constructor(
    private readonly db: Db,
    private readonly warn: (err: unknown) => void,
  ) {}

  keep(key: string, answer: KeptAnswer): void {
    this.queued.set(key, answer);
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      this.chain = this.chain.then(() => this.write());
    });
  }

  /** An answer sent but not yet committed. */
  answerOf(key: string): KeptAnswer | undefined {
    return this.queued.get(key) ?? this.writing.get(key);
  }

  /** Writes what is still waiting (on close). */
  async flush(): Promise<void> {
    this.chain = this.chain.then(() => this.write());
    await this.chain;
  }

  private async write(): Promise<void> {
    if (this.queued.size === 0) return;
    this.writing = this.queued;
    this.queued = new Map();
    try {
      if (this.db.kind === 'postgres') await storeRawResponses(this.db.db, this.writing);
      else
        await transact(this.db, async (trx) => {
          for (const [key, a] of this.writing) await storeRawResponse(trx, key, a.statusCode, a.json);
        });
    } catch (err) {
      this.warn(err); // the writes stand; their retries are told so (409 applied)
    } finally {
      this.writing = new Map();
    }
  }
}
