/**
 * The upper halves (0x80–0xFF) of the code pages the comandas use, written out from the IBM
 * tables so the decoder does not borrow the encoder's own mapping. cp858 is cp850 with the euro
 * sign at 0xD5; Spanish (ñ, á, é, í, ó, ú, ü, ¿, ¡) is complete in both.
 */
const CP437 =
  'ÇüéâäàåçêëèïîìÄÅÉæÆôöòûùÿÖÜ¢£¥₧ƒáíóúñÑªº¿⌐¬½¼¡«»░▒▓│┤╡╢╖╕╣║╗╝╜╛┐└┴┬├─┼╞╟╚╔╩╦╠═╬╧╨╤╥╙╘╒╓╫╪┘┌█▄▌▐▀αßΓπΣσµτΦΘΩδ∞φε∩≡±≥≤⌠⌡÷≈°∙·√ⁿ²■\u00a0';
const CP850 =
  'ÇüéâäàåçêëèïîìÄÅÉæÆôöòûùÿÖÜø£Ø×ƒáíóúñÑªº¿®¬½¼¡«»░▒▓│┤ÁÂÀ©╣║╗╝¢¥┐└┴┬├─┼ãÃ╚╔╩╦╠═╬¤ðÐÊËÈıÍÎÏ┘┌█▄¦Ì▀ÓßÔÒõÕµþÞÚÛÙýÝ¯´\u00ad±‗¾¶§÷¸°¨·¹³²■\u00a0';
const CP858 = CP850.slice(0, 0xd5 - 0x80) + '€' + CP850.slice(0xd5 - 0x80 + 1);

export type CodepageName = 'cp437' | 'cp850' | 'cp858';

export const UPPER_HALF: Record<CodepageName, string> = { cp437: CP437, cp850: CP850, cp858: CP858 };

/** ESC t n numbers (Epson's table) for the pages above. */
export const ESC_T: Record<number, CodepageName> = { 0: 'cp437', 2: 'cp850', 19: 'cp858' };

export function decodeByte(byte: number, page: CodepageName): string {
  if (byte < 0x80) return String.fromCharCode(byte);
  return [...UPPER_HALF[page]][byte - 0x80] ?? '?';
}
