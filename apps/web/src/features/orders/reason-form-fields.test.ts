import { describe, expect, it } from 'vitest';
import { CancelOrderBodySchema, VoidItemBodySchema } from '@comanda/contract';
import { VOID_MESSAGES } from '@comanda/domain';
import { firstMessage } from '../../lib/use-zod-form.ts';
import { reasonInput } from './reason-form-fields.tsx';

const messageOf = (result: { success: boolean; error?: { issues: readonly { message: string }[] } }) =>
  result.success ? null : firstMessage(result.error!.issues);

describe('the reason and note of a void or a cancelled order', () => {
  it('no reason chosen yet: both requests refuse it with the contract\'s "reasonRequired"', () => {
    const blank = reasonInput({ reason: null, note: '' });
    expect(blank).toEqual({ reason: '', note: null });
    expect(messageOf(VoidItemBodySchema.safeParse({ quantity: 1, ...blank }))).toBe(VOID_MESSAGES.reasonRequired);
    expect(messageOf(CancelOrderBodySchema.safeParse(blank))).toBe(VOID_MESSAGES.reasonRequired);
  });

  it('a blank note is none; a written one is sent as written', () => {
    expect(reasonInput({ reason: 'Error de captura', note: '   ' })).toEqual({ reason: 'Error de captura', note: null });
    const input = reasonInput({ reason: 'Error de captura', note: ' sin hielo ' });
    expect(VoidItemBodySchema.parse({ quantity: 2, ...input })).toEqual({ quantity: 2, reason: 'Error de captura', note: 'sin hielo' });
  });
});
