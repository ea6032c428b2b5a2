/**
 * The live events the server sends, by topic: a topic's name and each event type it carries are
 * typed here, so a misspelt name in the server's emit or in a screen's subscription fails to
 * compile instead of silently stopping that screen's refresh. Types only (plus two topic
 * builders): the strings on the wire are exactly these, and nothing is validated at run time.
 */
import type { BoardItem } from './board.ts';

export interface LiveTopicEvents {
  tables: 'table.created' | 'table.updated' | 'table.deleted' | 'table.released' | 'card-payment.review';
  orders: 'order.updated';
  board: 'board.updated';
  /** One station's board: a beer wakes the bar, not the kitchen. 'board' still hears every station. */
  'board:cocina': 'board.updated';
  'board:barra': 'board.updated';
  products: 'product.created' | 'product.updated' | 'product.deleted' | 'promotion.changed' | 'modifiers.updated';
  config: 'config.updated';
  users: 'user.created' | 'user.updated';
  terminals: 'terminal.updated' | 'terminal.test-charge' | 'card-payment.review';
  tickets: 'ticket.created';
  printers: 'printer.changed' | 'printer.status' | 'printers.alert' | 'jobs';
  drawer: 'drawer.updated' | 'drawer.settings';
  /** The bar's inventory: stock, insumos or recipes changed (sales posted, a purchase, a count). */
  inventory: 'inventory.changed';
  /** Facturación: a receipt, invoice or global changed state (id: the ticket's order, when one). */
  invoicing: 'invoicing.changed';
}

/** One order's topic: its own changes and card payments waiting for review. */
export type OrderTopic = `order:${string}`;
/** One card payment's topic: its progress on the terminal. */
export type CardPaymentTopic = `card-payment:${string}`;

export type OrderTopicEvent = 'order.updated' | 'card-payment.review';
export type CardPaymentTopicEvent = 'card-payment.updated';

/** Every topic a browser may subscribe to. */
export type LiveTopicName = keyof LiveTopicEvents | OrderTopic | CardPaymentTopic;

/** The event types a topic carries. */
export type LiveEventTypeOf<T extends LiveTopicName> = T extends keyof LiveTopicEvents
  ? LiveTopicEvents[T]
  : T extends OrderTopic
    ? OrderTopicEvent
    : T extends CardPaymentTopic
      ? CardPaymentTopicEvent
      : never;

export const orderTopic = (orderId: string): OrderTopic => `order:${orderId}`;
/** One station's board topic. */
export const boardTopic = (station: 'cocina' | 'barra'): 'board:cocina' | 'board:barra' => `board:${station}`;
export const cardPaymentTopic = (paymentId: string): CardPaymentTopic => `card-payment:${paymentId}`;

/**
 * A table's public state, carried by the table-level events of 'tables' (a table opened, closed,
 * moved, released, created): what every waiter's card shows of a table that is not theirs. With
 * it a phone patches that card instead of reading every table again, so one table opening does
 * not send forty phones to the server at once. `orderWaiters` are the waiters of the table's
 * active orders: a phone whose user is among them (or was, in its cached card) reads again, since
 * its own card shows more than this.
 */
export interface TableLiveCard {
  id: string;
  number: number;
  status: 'libre' | 'ocupada';
  waiterId: string | null;
  waiterName: string | null;
  updatedAt: number;
  orderWaiters: string[];
  /**
   * Set when the change touched the orders of one waiter only (a tab opened, an order paid or
   * cancelled): that waiter's id. Another waiter with an order of their own on the table (the
   * bar's tabs) keeps their cached summaries, which this change left as they were, and patches the
   * rest. Absent when the change may have touched several waiters' orders (moves, splits, merges).
   */
  changedOrdersOf?: string;
}

/**
 * What a board event changed, when the write knew it whole (an add, a line's status, a delete, lines
 * handed out from the order screen, a paid order's close): the lines as the boards now show them and
 * the ids that leave the boards. With it a board patches its
 * list instead of reading every live line again after each event; an event without it is read again.
 * On a station's topic it holds only that station's lines.
 */
export interface BoardLiveChange {
  lines: BoardItem[];
  removed: string[];
}

interface LiveEventFields {
  id?: string;
  version?: number;
  at: number;
  /** On 'tables' events about one table (stamped by the server before commit): its public state. */
  table?: TableLiveCard;
  /** On board events whose change the write knew whole: the lines to patch in and the ids to drop. */
  board?: BoardLiveChange;
}

/** An event of one of the topics T (by default any topic), its type one that topic carries. */
export type LiveEventOf<T extends LiveTopicName = LiveTopicName> = T extends LiveTopicName
  ? { topic: T; type: LiveEventTypeOf<T> } & LiveEventFields
  : never;

/** An event about to be published: the server stamps `at` after commit. */
export type LiveEventDraft<T extends LiveTopicName = LiveTopicName> = T extends LiveTopicName
  ? { topic: T; type: LiveEventTypeOf<T>; id?: string; version?: number; board?: BoardLiveChange }
  : never;
