import type { CardPayment } from '@comanda/contract';
import type { CardDialogState } from '@comanda/domain';

/**
 * Everything the card dialog keeps between renders, in one value changed only by
 * `cardDialogReducer`. The attempt's own state (sending, on the terminal, approved…) is the
 * server's: the dialog holds which attempt it shows, never a copy of it.
 */
export interface CardDialogModel {
  /** The attempt on screen (started here, or adopted after a reload or a remount). */
  sessionId: string | null;
  terminalId: string | null;
  /** Shown by itself, without the screen asking: an attempt came back after a reload. */
  resumed: boolean;
  /** '¿Cerrar sin cobrar?' is asked. */
  confirming: boolean;
  /** Why the last send was refused, when no attempt was created. */
  failure: string | null;
  /** The Idempotency-Key of the next send: a resend of the same attempt keeps it. */
  attemptKey: string;
  /** The order's live attempt was looked for once, on the first answer. */
  checkedOnLoad: boolean;
}

export type CardDialogAction =
  /** The order's live attempt is shown; `reopen` when the dialog brings itself back. */
  | { type: 'adopt'; payment: Pick<CardPayment, 'id' | 'terminalId'>; reopen: boolean }
  | { type: 'checked-on-load' }
  | { type: 'terminal'; id: string | null }
  | { type: 'sending' }
  | { type: 'started'; id: string }
  /** Refused; `newKey` when the server answered (nothing created), so the next try is a new attempt. */
  | { type: 'failed'; message: string; newKey: string | null }
  | { type: 'confirm'; asking: boolean }
  /** Closed; `going` when the attempt is still waited on and must come back when reopened. */
  | { type: 'closed'; going: boolean; newKey: string }
  /** 'Cerrar sin cobrar': the terminal was asked to cancel; whatever it does, the server settles it. */
  | { type: 'abandoned'; newKey: string }
  | { type: 'retry'; newKey: string }
  | { type: 'paid' };

export function initialCardDialog(memory: Pick<CardDialogModel, 'sessionId' | 'terminalId' | 'resumed'> | undefined, attemptKey: string) {
  return {
    sessionId: memory?.sessionId ?? null,
    terminalId: memory?.terminalId ?? null,
    resumed: memory?.resumed ?? false,
    confirming: false,
    failure: null,
    attemptKey,
    checkedOnLoad: false,
  } satisfies CardDialogModel;
}

const fresh = (state: CardDialogModel, newKey: string): CardDialogModel => ({
  ...state,
  sessionId: null,
  failure: null,
  attemptKey: newKey,
});

export function cardDialogReducer(state: CardDialogModel, action: CardDialogAction): CardDialogModel {
  switch (action.type) {
    case 'adopt':
      return { ...state, sessionId: action.payment.id, terminalId: action.payment.terminalId, resumed: state.resumed || action.reopen };
    case 'checked-on-load':
      return { ...state, checkedOnLoad: true };
    case 'terminal':
      return { ...state, terminalId: action.id };
    case 'sending':
      return { ...state, failure: null };
    case 'started':
      return { ...state, sessionId: action.id };
    case 'failed':
      return { ...state, failure: action.message, attemptKey: action.newKey ?? state.attemptKey };
    case 'confirm':
      return { ...state, confirming: action.asking };
    case 'closed': {
      const closed = { ...state, confirming: false, resumed: false };
      return action.going ? closed : fresh(closed, action.newKey);
    }
    case 'abandoned':
      return fresh({ ...state, confirming: false, resumed: false }, action.newKey);
    case 'retry':
      return fresh(state, action.newKey);
    case 'paid':
      return { ...state, resumed: false };
  }
}

/** What the dialog shows (SPEC §4): the attempt's own state once there is one. */
export function cardDialogView(state: CardDialogModel, attempt: CardPayment | undefined, sending: boolean): CardDialogState {
  if (state.confirming) return 'confirm-close';
  if (state.sessionId) return attempt?.dialogState ?? 'sending';
  if (sending) return 'sending';
  if (state.failure) return 'error';
  return state.terminalId ? 'initial' : 'select-terminal';
}
