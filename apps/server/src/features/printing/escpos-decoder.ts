import { decodeByte, ESC_T, type CodepageName } from './codepages.ts';

/**
 * A small parser of the ESC/POS subset the comanda encoder emits, so what reached a printer can
 * be read back as text (the emulator, the tests). Formatting is kept as markers: a line printed
 * double size starts with "##", inverted (notes, REIMPRESIÓN) text is wrapped in [[ ]].
 * Unknown commands are skipped by their known lengths; a cut ends a ticket.
 */
export interface DecodedTicket {
  text: string;
  /** The ticket ended with a cut (a ticket cut short by a dropped connection has none). */
  complete: boolean;
  /** Cash drawer pulses sent in this ticket. */
  pulses: number;
}

export interface StatusRequest {
  /** DLE EOT n: 1 printer, 2 offline cause, 3 error cause, 4 paper roll sensor. */
  n: number;
  /** Offset just after the request in the stream. */
  end: number;
}

const ESC = 0x1b;
const GS = 0x1d;
const FS = 0x1c;
const DLE = 0x10;
const EOT = 0x04;
const LF = 0x0a;
const CR = 0x0d;

/** Finds real-time status requests (DLE EOT n) in a byte stream. */
export function findStatusRequests(bytes: Uint8Array): StatusRequest[] {
  const found: StatusRequest[] = [];
  for (let i = 0; i + 2 < bytes.length + 0; i++) {
    if (bytes[i] === DLE && bytes[i + 1] === EOT && bytes[i + 2]! >= 1 && bytes[i + 2]! <= 4) {
      found.push({ n: bytes[i + 2]!, end: i + 3 });
      i += 2;
    }
  }
  return found;
}

export function decodeEscPos(bytes: Uint8Array): DecodedTicket[] {
  const tickets: DecodedTicket[] = [];
  let page: CodepageName = 'cp437';
  let lines: string[] = [];
  let line = '';
  let big = false;
  let lineBig = false;
  let inverted = false;
  let pulses = 0;
  let sawContent = false;
  const put = (s: string) => {
    line += s;
    sawContent = true;
    if (big) lineBig = true;
  };
  const endLine = () => {
    lines.push((lineBig ? '## ' : '') + line.replace(/\s+$/, ''));
    line = '';
    lineBig = false;
  };
  const endTicket = (complete: boolean) => {
    if (line) endLine();
    while (lines.length && lines[lines.length - 1] === '') lines.pop();
    while (lines.length && lines[0] === '') lines.shift();
    tickets.push({ text: lines.join('\n'), complete, pulses });
    lines = [];
    pulses = 0;
    sawContent = false;
  };
  let i = 0;
  const at = (k: number) => bytes[i + k] ?? 0;
  while (i < bytes.length) {
    const b = bytes[i]!;
    if (b === ESC) {
      const c = at(1);
      switch (c) {
        case 0x40: // ESC @ initialize
          big = inverted = false;
          i += 2;
          continue;
        case 0x74: // ESC t n code page
          page = ESC_T[at(2)] ?? page;
          i += 3;
          continue;
        case 0x70: // ESC p m t1 t2 drawer pulse
          pulses++;
          sawContent = true;
          i += 5;
          continue;
        case 0x64: // ESC d n feed lines
          for (let k = 0; k < at(2); k++) endLine();
          i += 3;
          continue;
        case 0x45: // ESC E n bold
        case 0x4d: // ESC M n font
        case 0x2d: // ESC - n underline
        case 0x34: // ESC 4 n italic
        case 0x61: // ESC a n align
        case 0x33: // ESC 3 n line spacing
        case 0x21: // ESC ! n print mode
        case 0x47: // ESC G n double strike
        case 0x52: // ESC R n international set
          i += 3;
          continue;
        case 0x32: // ESC 2 default spacing
          i += 2;
          continue;
        default:
          i += 2;
          continue;
      }
    }
    if (b === GS) {
      const c = at(1);
      if (c === 0x21) {
        // GS ! n size
        big = at(2) !== 0;
        i += 3;
        continue;
      }
      if (c === 0x42) {
        // GS B n reverse
        const on = at(2) === 1;
        if (on !== inverted) put(on ? '[[' : ']]');
        inverted = on;
        i += 3;
        continue;
      }
      if (c === 0x76 && at(2) === 0x30) {
        // GS v 0 m xL xH yL yH d1…dk raster image (in chunks): shown once as [IMAGEN]
        const bytesPerRow = at(4) + at(5) * 256;
        const rows = at(6) + at(7) * 256;
        if (!line.endsWith('[IMAGEN]')) put('[IMAGEN]');
        i += 8 + bytesPerRow * rows;
        continue;
      }
      if (c === 0x28 && at(2) === 0x6b) {
        // GS ( k pL pH cn fn [d…]: 2D codes; a QR's stored data (cn 49, fn 80, m 48) shows as [QR data]
        const length = at(3) + at(4) * 256;
        if (at(5) === 0x31 && at(6) === 0x50 && length > 3) {
          let data = '';
          for (let k = 8; k < 5 + length; k++) data += decodeByte(at(k), 'cp437');
          put(`[QR ${data}]`);
        }
        i += 5 + length;
        continue;
      }
      if (c === 0x56) {
        // GS V m [n] cut: m 0/1/48/49 have no n; 65/66 have one
        const m = at(2);
        i += m === 65 || m === 66 ? 4 : 3;
        endTicket(true);
        continue;
      }
      i += 3;
      continue;
    }
    if (b === FS) {
      // FS . (cancel Kanji) and FS & — two bytes
      i += 2;
      continue;
    }
    if (b === DLE && at(1) === EOT) {
      i += 3;
      continue;
    }
    if (b === LF) {
      endLine();
      i++;
      continue;
    }
    if (b === CR) {
      i++;
      continue;
    }
    if (b < 0x20) {
      i++;
      continue;
    }
    put(decodeByte(b, page));
    i++;
  }
  if (sawContent || line) endTicket(false);
  return tickets;
}
