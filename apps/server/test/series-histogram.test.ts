import { describe, expect, it } from 'vitest';
import { Histogram, Registry } from 'prom-client';
import { SeriesHistogram } from '../src/ops/series-histogram.ts';

/** /metrics keeps prom-client's text for the two histograms the server observes on every request. */
describe('SeriesHistogram', () => {
  const buckets = [0.005, 0.01, 0.025, 0.05, 0.1];
  const observations: Array<[Record<string, string>, number]> = [
    [{ method: 'POST', route: '/api/orders/:orderId/items', status: '200' }, 0.004],
    [{ method: 'POST', route: '/api/orders/:orderId/items', status: '200' }, 0.005],
    [{ method: 'POST', route: '/api/orders/:orderId/items', status: '200' }, 0.0301],
    [{ method: 'GET', route: '/api/tables', status: '200' }, 0.2],
    [{ method: 'POST', route: '/api/orders/:orderId/items', status: '409' }, 0.01],
    [{ method: 'POST', route: '/api/orders/:orderId/items', status: '200' }, 7],
  ];

  it('writes the same text as prom-client for the same observations', async () => {
    const theirs = new Registry();
    const reference = new Histogram({
      name: 'h_seconds',
      help: 'help text',
      labelNames: ['method', 'route', 'status'],
      buckets,
      registers: [theirs],
    });
    const ours = new Registry();
    const histogram = new SeriesHistogram('h_seconds', 'help text', ['method', 'route', 'status'], buckets);
    ours.registerMetric(histogram as never);
    for (const [labels, value] of observations) {
      reference.observe(labels, value);
      histogram.series(labels).observe(value);
    }
    const text = await ours.metrics();
    expect(text).toBe(await theirs.metrics());
    expect(text).toContain('h_seconds_bucket{le="0.005",method="POST",route="/api/orders/:orderId/items",status="200"} 2');
    expect(text).toContain('h_seconds_bucket{le="+Inf",method="POST",route="/api/orders/:orderId/items",status="200"} 4');
    expect(text).toContain('h_seconds_count{method="GET",route="/api/tables",status="200"} 1');
  });

  it('gives one series per set of labels, kept by the caller', () => {
    const histogram = new SeriesHistogram('k', 'k', ['kind'], buckets);
    const select = histogram.series({ kind: 'select' });
    expect(histogram.series({ kind: 'select' })).toBe(select);
    expect(histogram.series({ kind: 'insert' })).not.toBe(select);
    select.observe(0.001);
    select.observe(0.002);
    const counts = histogram.get().values.filter((v) => v.metricName === 'k_count');
    expect(counts.map((v) => [v.sharedLabels?.kind, v.value])).toEqual([
      ['select', 2],
      ['insert', 0],
    ]);
  });
});
