/**
 * Runs work as it comes while fewer than `lanes` runs are under way; what arrives while every lane
 * is busy waits, and goes in the next free lane together, up to `most` items at a time. One item on
 * a quiet server runs at once, alone; under a burst, the items queue for a moment and share a run
 * (decision 0048: PostgreSQL item adds, several in one statement).
 */
export class Gathering<T, R> {
  private readonly waiting: { item: T; resolve: (result: R) => void; reject: (error: unknown) => void }[] = [];
  private running = 0;

  constructor(
    /** Runs the items, answering one result per item in their order; a throw fails all of them. */
    private readonly send: (items: T[]) => Promise<R[]>,
    private readonly lanes: number,
    private readonly most: number,
  ) {}

  run(item: T): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      this.waiting.push({ item, resolve, reject });
      this.pump();
    });
  }

  private pump(): void {
    while (this.running < this.lanes && this.waiting.length > 0) {
      const group = this.waiting.splice(0, this.most);
      this.running++;
      void this.send(group.map((g) => g.item))
        .then(
          (results) => group.forEach((g, i) => g.resolve(results[i]!)),
          (error: unknown) => group.forEach((g) => g.reject(error)),
        )
        .finally(() => {
          this.running--;
          this.pump();
        });
    }
  }
}
