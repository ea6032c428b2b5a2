import CodepageEncoder from '@point-of-sale/codepage-encoder';

type Codepage = Parameters<typeof CodepageEncoder.encode>[1];

/**
 * The ESC/POS encoder turns each piece of text into code-page bytes with
 * `CodepageEncoder.encode`, which deep-copies the whole code-page table (structuredClone of its
 * 256 code points) on every call and then looks each character up with a linear search: ~6 % of
 * the server's CPU on a busy night, for a few dozen short strings per comanda.
 *
 * `installFastCodepages` replaces that one function with one that builds each code page's
 * reverse table once (code point → first byte that prints it, as the linear search finds) and
 * gives exactly the same bytes, '?' (0x3f) for a character the page lacks. It returns the
 * library's own function, which the tests compare against on every character of every page.
 */
export function installFastCodepages(): typeof CodepageEncoder.encode {
  const original = CodepageEncoder.encode;
  if ((original as { fast?: true }).fast) return (original as { original?: typeof original }).original ?? original;
  const tables = new Map<Codepage, Map<number, number>>();
  const tableOf = (codepage: Codepage) => {
    let table = tables.get(codepage);
    if (!table) {
      table = new Map();
      for (const [byte, codepoint] of CodepageEncoder.getEncoding(codepage).codepoints.entries()) {
        if (!table.has(codepoint)) table.set(codepoint, byte);
      }
      tables.set(codepage, table);
    }
    return table;
  };
  const fast = (input: string, codepage: Codepage): Uint8Array => {
    const table = tableOf(codepage);
    const output = new Uint8Array(input.length);
    // Per UTF-16 unit, as the library does (a character outside the BMP takes two '?').
    for (let c = 0; c < input.length; c++) output[c] = table.get(input.codePointAt(c)!) ?? 0x3f;
    return output;
  };
  CodepageEncoder.encode = Object.assign(fast, { fast: true as const, original });
  return original;
}
