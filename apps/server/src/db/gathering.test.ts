import { describe, expect, it } from 'vitest';
import { Gathering } from './gathering.ts';

/** A send whose runs the test ends by hand, recording the items of each. */
function controlledSend() {
  const runs: { items: number[]; finish: (fail?: Error) => void }[] = [];
  const send = (items: number[]) =>
    new Promise<string[]>((resolve, reject) => {
      runs.push({ items, finish: (fail) => (fail ? reject(fail) : resolve(items.map((i) => `done ${i}`))) });
    });
  return { runs, send };
}

const turn = () => new Promise((r) => setImmediate(r));

describe('Gathering', () => {
  it('runs each item at once and alone while a lane is free', async () => {
    const { runs, send } = controlledSend();
    const gathering = new Gathering(send, 2, 8);
    const a = gathering.run(1);
    const b = gathering.run(2);
    expect(runs.map((r) => r.items)).toEqual([[1], [2]]);
    runs[0]!.finish();
    runs[1]!.finish();
    expect(await Promise.all([a, b])).toEqual(['done 1', 'done 2']);
  });

  it('gathers what arrives while every lane is busy into the next free lane, at most `most` at a time, each answered its own result', async () => {
    const { runs, send } = controlledSend();
    const gathering = new Gathering(send, 1, 3);
    const results = [1, 2, 3, 4, 5, 6].map((i) => gathering.run(i));
    expect(runs.map((r) => r.items)).toEqual([[1]]);
    runs[0]!.finish();
    await turn();
    expect(runs.map((r) => r.items)).toEqual([[1], [2, 3, 4]]);
    runs[1]!.finish();
    await turn();
    expect(runs.map((r) => r.items)).toEqual([[1], [2, 3, 4], [5, 6]]);
    runs[2]!.finish();
    expect(await Promise.all(results)).toEqual([1, 2, 3, 4, 5, 6].map((i) => `done ${i}`));
  });

  it('a failed run fails its own items only, and the lane serves the next', async () => {
    const { runs, send } = controlledSend();
    const gathering = new Gathering(send, 1, 2);
    const first = gathering.run(1);
    const second = [2, 3].map((i) => gathering.run(i));
    const third = gathering.run(4);
    runs[0]!.finish();
    await turn();
    expect(runs[1]!.items).toEqual([2, 3]);
    runs[1]!.finish(new Error('lost'));
    const settled = await Promise.allSettled(second);
    expect(settled.map((s) => (s.status === 'rejected' ? (s.reason as Error).message : s.status))).toEqual(['lost', 'lost']);
    await turn();
    expect(runs[2]!.items).toEqual([4]);
    runs[2]!.finish();
    expect(await first).toBe('done 1');
    expect(await third).toBe('done 4');
  });
});
