import { describe, expect, it } from 'vitest';
import {
  isLocalPrinterHost,
  isLoopbackHost,
  PRINTER_HOST_NOT_LOCAL,
  PRINTER_PORT_NOT_ALLOWED,
  printerAddressProblem,
} from './printer-host.ts';

describe('isLocalPrinterHost', () => {
  it.each([
    '10.0.0.5',
    '172.16.0.1',
    '172.31.255.254',
    '192.168.1.50',
    ' 192.168.1.50 ',
    'fd12:3456::10',
    '[fd12:3456::10]',
    'fc00::1',
    'FD00:0:0:0:0:0:0:9',
    '::ffff:192.168.1.9',
  ])('accepts %s', (host) => expect(isLocalPrinterHost(host)).toBe(true));

  it.each([
    // the server itself and the cloud metadata service
    '127.0.0.1',
    '127.1.2.3',
    'localhost',
    '::1',
    '[::1]',
    '0:0:0:0:0:0:0:1',
    '::ffff:127.0.0.1',
    '169.254.169.254',
    '169.254.10.20',
    'fe80::1',
    // forms a resolver may read as another address
    '010.0.0.1',
    '0x7f.0.0.1',
    '2130706433',
    '127.1',
    '::ffff:7f00:1',
    'fd00::1%eth0',
    // names: what they resolve to can change after saving
    'cocina.local',
    'caja.lan',
    'impresora',
    'example.com',
    // the internet and nonsense
    '8.8.8.8',
    '172.32.0.1',
    '172.15.0.1',
    '192.169.1.1',
    '0.0.0.0',
    '255.255.255.255',
    '192.168.1.256',
    '2001:4860:4860::8888',
    '::ffff:8.8.8.8',
    'fd00::1::2',
    'fd00:1:2:3:4:5:6:7:8',
    '::',
    '',
  ])('refuses %s', (host) => expect(isLocalPrinterHost(host)).toBe(false));

  it('knows loopback apart, for the printers the server sets up itself', () => {
    expect(['127.0.0.1', 'localhost', '::1', '::ffff:127.0.0.1'].every(isLoopbackHost)).toBe(true);
    expect(['192.168.1.50', '169.254.169.254', '0x7f.0.0.1', 'fe80::1'].some(isLoopbackHost)).toBe(false);
  });
});

describe('printerAddressProblem', () => {
  it('accepts the raw printing ports on the LAN and refuses every other port or host, in Spanish', () => {
    for (const port of [9100, 9101, 9102]) expect(printerAddressProblem('192.168.1.50', port)).toBeNull();
    for (const port of [22, 25, 515, 631, 5432, 6379, 9103, 80])
      expect(printerAddressProblem('192.168.1.50', port)).toBe(PRINTER_PORT_NOT_ALLOWED);
    expect(printerAddressProblem('127.0.0.1', 9100)).toBe(PRINTER_HOST_NOT_LOCAL);
    expect(printerAddressProblem('169.254.169.254', 9100)).toBe(PRINTER_HOST_NOT_LOCAL);
    expect(PRINTER_PORT_NOT_ALLOWED).toBe('El puerto de la impresora debe ser 9100, 9101 o 9102 (impresión directa por red)');
  });
});
