import { describe, expect, it } from 'vitest';
import { cardDialogReducer, cardDialogView, initialCardDialog, type CardDialogModel } from './card-dialog-state.ts';

const start = (): CardDialogModel => initialCardDialog(undefined, 'key-1');

describe('card dialog reducer', () => {
  it('goes from choosing a terminal to sending, keeps the key on a network failure and renews it on a refusal', () => {
    let s = start();
    expect(cardDialogView(s, undefined, false)).toBe('select-terminal');
    s = cardDialogReducer(s, { type: 'terminal', id: 'T1' });
    expect(cardDialogView(s, undefined, false)).toBe('initial');
    s = cardDialogReducer(s, { type: 'sending' });
    expect(cardDialogView(s, undefined, true)).toBe('sending');
    s = cardDialogReducer(s, { type: 'failed', message: 'sin red', newKey: null });
    expect([cardDialogView(s, undefined, false), s.attemptKey]).toEqual(['error', 'key-1']);
    s = cardDialogReducer(s, { type: 'failed', message: 'rechazado', newKey: 'key-2' });
    expect(s.attemptKey).toBe('key-2');
    s = cardDialogReducer(s, { type: 'retry', newKey: 'key-3' });
    expect([cardDialogView(s, undefined, false), s.failure, s.attemptKey]).toEqual(['initial', null, 'key-3']);
  });

  it('closing keeps an attempt still on the terminal, so reopening shows it; a finished one starts afresh', () => {
    const going = cardDialogReducer({ ...start(), sessionId: 'p1', resumed: true }, { type: 'closed', going: true, newKey: 'k' });
    expect([going.sessionId, going.resumed, going.attemptKey]).toEqual(['p1', false, 'key-1']);
    const over = cardDialogReducer({ ...start(), sessionId: 'p1' }, { type: 'closed', going: false, newKey: 'k' });
    expect([over.sessionId, over.attemptKey]).toEqual([null, 'k']);
  });

  it('a remounted dialog comes back from its memory and shows the attempt; adopting after a reload reopens it', () => {
    const s = initialCardDialog({ sessionId: 'p1', terminalId: 'T1', resumed: true }, 'k');
    expect(s.resumed).toBe(true);
    expect(cardDialogView(s, undefined, false)).toBe('sending');
    const adopted = cardDialogReducer(start(), { type: 'adopt', payment: { id: 'p2', terminalId: 'T2' }, reopen: true });
    expect([adopted.sessionId, adopted.terminalId, adopted.resumed]).toEqual(['p2', 'T2', true]);
    const asked = cardDialogReducer(adopted, { type: 'confirm', asking: true });
    expect(cardDialogView(asked, undefined, false)).toBe('confirm-close');
    const abandoned = cardDialogReducer(asked, { type: 'abandoned', newKey: 'k9' });
    expect([abandoned.sessionId, abandoned.confirming, abandoned.resumed, abandoned.attemptKey]).toEqual([null, false, false, 'k9']);
  });
});
