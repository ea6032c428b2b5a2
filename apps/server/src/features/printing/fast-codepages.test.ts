import CodepageEncoder from '@point-of-sale/codepage-encoder';
import { describe, expect, it } from 'vitest';
import { installFastCodepages } from './fast-codepages.ts';

describe('the code-page encoder with tables built once', () => {
  const original = installFastCodepages();

  it('is installed once, and gives the library back', () => {
    expect(CodepageEncoder.encode).not.toBe(original);
    expect(installFastCodepages()).toBe(original);
  });

  it('gives the same bytes as the library for every character of every code page, and for characters they lack', () => {
    const pages = CodepageEncoder.getEncodings();
    expect(pages.length).toBeGreaterThan(20);
    let compared = 0;
    for (const page of pages) {
      const own = CodepageEncoder.getEncoding(page).codepoints.filter((c) => typeof c === 'number' && c >= 0);
      const text = String.fromCodePoint(...own) + 'Piña colada jalapeño ¿doble? ¡Sí! €ÆŒ✓ 😀\u0000';
      const fast = CodepageEncoder.encode(text, page);
      expect(fast, page).toEqual(original.call(CodepageEncoder, text, page));
      compared += text.length;
    }
    // Aliases and an unknown name (the library falls back to ASCII) too.
    for (const page of ['cp858', 'ascii', 'no-such-page'] as const) {
      const text = 'Mesero: Ñoño ¿¡ ÁÉÍÓÚ áéíóú € 😀';
      expect(CodepageEncoder.encode(text, page as never)).toEqual(original.call(CodepageEncoder, text, page as never));
    }
    expect(compared).toBeGreaterThan(5000);
  });
});
