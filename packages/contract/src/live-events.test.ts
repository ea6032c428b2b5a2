import { describe, expect, expectTypeOf, it } from 'vitest';
import type { LiveEvent, LiveEventDraft, LiveEventOf, LiveEventTypeOf, LiveTopicName } from './index.ts';
import { cardPaymentTopic, orderTopic } from './index.ts';

describe('live events are typed by topic', () => {
  it('builds the per-order and per-payment topics exactly as sent on the wire', () => {
    expect(orderTopic('o1')).toBe('order:o1');
    expect(cardPaymentTopic('p1')).toBe('card-payment:p1');
  });

  it('accepts the events the server emits and rejects a misspelt topic or type at compile time', () => {
    const ok: LiveEventDraft[] = [
      { topic: 'tables', type: 'table.updated', id: 't1', version: 3 },
      { topic: orderTopic('o1'), type: 'order.updated', id: 'o1' },
      { topic: cardPaymentTopic('p1'), type: 'card-payment.updated', id: 'p1' },
      { topic: 'printers', type: 'jobs', id: 'caja' },
    ];
    expect(ok).toHaveLength(4);

    // @ts-expect-error misspelt type: 'table.update' is not an event of 'tables'
    const misspeltType: LiveEventDraft = { topic: 'tables', type: 'table.update', id: 't1' };
    // @ts-expect-error misspelt topic: 'table' is not a topic
    const misspeltTopic: LiveEventDraft = { topic: 'table', type: 'table.updated', id: 't1' };
    // @ts-expect-error a real type on the wrong topic: 'orders' never carries 'table.updated'
    const wrongTopic: LiveEventDraft = { topic: 'orders', type: 'table.updated' };
    // @ts-expect-error a topic a subscription may not name
    const unknown: LiveTopicName = 'ordr:o1';
    expect([misspeltType, misspeltTopic, wrongTopic, unknown]).toHaveLength(4);
  });

  it('narrows a subscription to the event types its topics carry', () => {
    expectTypeOf<LiveEventTypeOf<'drawer'>>().toEqualTypeOf<'drawer.updated' | 'drawer.settings'>();
    expectTypeOf<LiveEventTypeOf<`order:${string}`>>().toEqualTypeOf<'order.updated' | 'card-payment.review'>();
    expectTypeOf<LiveEventOf<'users'>['type']>().toEqualTypeOf<'user.created' | 'user.updated'>();
    expectTypeOf<LiveEventOf<'users'>>().toMatchTypeOf<LiveEvent>();
  });
});
