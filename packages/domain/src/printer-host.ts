/**
 * Printers live on the bar's own network. A printer's host may only be a loopback, RFC 1918
 * private, link-local or unique-local address, or a local name (`localhost`, `*.local`, `*.lan`):
 * the server opens raw TCP connections to it, and must not be turned into a way to reach other
 * machines on the internet (docs/security.md).
 */
export const PRINTER_HOST_NOT_LOCAL =
  'La impresora debe estar en la red local: usa una IP privada (192.168.x.x, 10.x.x.x, 172.16–31.x.x), 127.0.0.1 o un nombre .local o .lan';

function ipv4Octets(host: string): number[] | null {
  const parts = host.split('.');
  if (parts.length !== 4) return null;
  const octets = parts.map((p) => (/^\d{1,3}$/.test(p) ? Number(p) : NaN));
  return octets.every((n) => Number.isInteger(n) && n >= 0 && n <= 255) ? octets : null;
}

function isPrivateIpv4([a, b]: number[]): boolean {
  return (
    a === 127 || // loopback
    a === 10 || // RFC 1918
    (a === 172 && b! >= 16 && b! <= 31) ||
    (a === 192 && b === 168) ||
    (a === 169 && b === 254) // link-local
  );
}

function isPrivateIpv6(host: string): boolean {
  const h = host.toLowerCase();
  if (!/^[0-9a-f:.]+$/.test(h) || !h.includes(':')) return false;
  if (h === '::1') return true;
  // IPv4-mapped (::ffff:192.168.1.50): the IPv4 rule decides.
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(h);
  if (mapped) {
    const octets = ipv4Octets(mapped[1]!);
    return octets !== null && isPrivateIpv4(octets);
  }
  const first = parseInt(h.split(':')[0] || '0', 16);
  return (first & 0xffc0) === 0xfe80 || (first & 0xfe00) === 0xfc00; // link-local fe80::/10, unique-local fc00::/7
}

/** True when `host` (no scheme, no port; IPv6 with or without brackets) is on the local network. */
export function isLocalPrinterHost(host: string): boolean {
  const h = host
    .trim()
    .replace(/^\[(.*)\]$/, '$1')
    .replace(/\.$/, '')
    .toLowerCase();
  if (h === '') return false;
  const octets = ipv4Octets(h);
  if (octets) return isPrivateIpv4(octets);
  if (h.includes(':')) return isPrivateIpv6(h);
  // A name: only the local ones; a name that looks like a number is not an address.
  if (!/^[a-z0-9-]+(\.[a-z0-9-]+)*$/.test(h) || /^[\d.]+$/.test(h)) return false;
  return h === 'localhost' || h.endsWith('.local') || h.endsWith('.lan');
}
