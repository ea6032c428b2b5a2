/**
 * Where a printer may be: the server opens raw TCP connections to it and writes text, so an
 * address an admin types must not reach the server's own services (loopback), the cloud metadata
 * service (link-local), other machines on the internet, or a LAN service on a port that is not a
 * printer's. Allowed: an IP literal on the bar's private network (10/8, 172.16/12, 192.168/16, IPv6
 * unique-local fc00::/7) and the raw printing ports. Host names are refused: what a name resolves
 * to can change after it is saved. Loopback is only for printers the server itself sets up (its
 * emulators, and PRINTERS given by whoever starts it). See docs/security.md.
 */
export const PRINTER_HOST_NOT_LOCAL =
  'La impresora debe estar en la red local: escribe su IP privada (192.168.x.x, 10.x.x.x o 172.16–31.x.x), no un nombre ni 127.0.0.1';

/** Raw ESC/POS over TCP (JetDirect): 9100, and 9101–9102 for the second and third port of a print server. */
export const PRINTER_PORTS: readonly number[] = [9100, 9101, 9102];
export const PRINTER_PORT_NOT_ALLOWED = `El puerto de la impresora debe ser ${PRINTER_PORTS.join(', ').replace(/, (\d+)$/, ' o $1')} (impresión directa por red)`;

/** Dotted-quad decimal only: "010.0.0.1" or "0x7f.1" could be read as other addresses by the resolver. */
function ipv4Octets(host: string): number[] | null {
  const parts = host.split('.');
  if (parts.length !== 4 || !parts.every((p) => /^(0|[1-9]\d{0,2})$/.test(p))) return null;
  const octets = parts.map(Number);
  return octets.every((n) => n <= 255) ? octets : null;
}

function isPrivateIpv4([a, b]: number[]): boolean {
  return a === 10 || (a === 172 && b! >= 16 && b! <= 31) || (a === 192 && b === 168);
}

function isLoopbackIpv4([a]: number[]): boolean {
  return a === 127;
}

/** The eight 16-bit groups of an IPv6 literal (an embedded IPv4 tail allowed), or null when it is not one. */
function ipv6Groups(host: string): number[] | null {
  if (!/^[0-9a-f:.]+$/.test(host) || !host.includes(':')) return null;
  let text = host;
  const tail: number[] = [];
  const v4 = /^(.*:)(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (v4) {
    const octets = ipv4Octets(v4[2]!);
    if (!octets) return null;
    tail.push((octets[0]! << 8) | octets[1]!, (octets[2]! << 8) | octets[3]!);
    text = v4[1]!.endsWith('::') ? v4[1]! : v4[1]!.slice(0, -1);
  }
  const halves = text.split('::');
  if (halves.length > 2) return null;
  const group = (g: string) => (/^[0-9a-f]{1,4}$/.test(g) ? parseInt(g, 16) : NaN);
  const head = halves[0] === '' ? [] : halves[0]!.split(':').map(group);
  const rest = halves.length === 2 && halves[1] !== '' ? halves[1]!.split(':').map(group) : [];
  if ([...head, ...rest].some(Number.isNaN)) return null;
  const given = head.length + rest.length + tail.length;
  if (halves.length === 1 ? given !== 8 : given > 7) return null;
  return [...head, ...Array<number>(8 - given).fill(0), ...rest, ...tail];
}

type HostKind = 'lan' | 'loopback' | 'other';

function hostKind(host: string): HostKind {
  const h = host
    .trim()
    .replace(/^\[(.*)\]$/, '$1')
    .toLowerCase();
  if (h === 'localhost') return 'loopback';
  const octets = ipv4Octets(h);
  if (octets) return isPrivateIpv4(octets) ? 'lan' : isLoopbackIpv4(octets) ? 'loopback' : 'other';
  const groups = ipv6Groups(h);
  if (!groups) return 'other';
  if (groups.slice(0, 7).every((g) => g === 0) && groups[7] === 1) return 'loopback';
  // IPv4-mapped (::ffff:a.b.c.d): the IPv4 rule decides.
  if (groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff) {
    const mapped = [groups[6]! >> 8, groups[6]! & 0xff, groups[7]! >> 8, groups[7]! & 0xff];
    return isPrivateIpv4(mapped) ? 'lan' : isLoopbackIpv4(mapped) ? 'loopback' : 'other';
  }
  return (groups[0]! & 0xfe00) === 0xfc00 ? 'lan' : 'other';
}

/** True when `host` (an IP literal, IPv6 with or without brackets) is on the bar's private network. */
export function isLocalPrinterHost(host: string): boolean {
  return hostKind(host) === 'lan';
}

/** This machine itself (127/8, ::1, localhost): only for printers the server sets up, never one an admin types. */
export function isLoopbackHost(host: string): boolean {
  return hostKind(host) === 'loopback';
}

/** Why an admin may not point a printer at host:port (the Spanish message), or null when it may. */
export function printerAddressProblem(host: string, port: number): string | null {
  if (!isLocalPrinterHost(host)) return PRINTER_HOST_NOT_LOCAL;
  if (!PRINTER_PORTS.includes(port)) return PRINTER_PORT_NOT_ALLOWED;
  return null;
}
