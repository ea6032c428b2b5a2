import { describe, expect, it } from 'vitest';
import { isLocalPrinterHost } from './printer-host.ts';

describe('isLocalPrinterHost', () => {
  it.each([
    '127.0.0.1',
    '127.1.2.3',
    '10.0.0.5',
    '172.16.0.1',
    '172.31.255.254',
    '192.168.1.50',
    '169.254.10.20',
    'localhost',
    'cocina.local',
    'Impresora-Barra.LAN',
    'caja.lan.',
    '::1',
    '[::1]',
    'fe80::1',
    'fd12:3456::10',
    '::ffff:192.168.1.9',
  ])('accepts %s', (host) => expect(isLocalPrinterHost(host)).toBe(true));

  it.each([
    '8.8.8.8',
    '172.32.0.1',
    '172.15.0.1',
    '192.169.1.1',
    '0.0.0.0',
    '255.255.255.255',
    '1.2.3',
    '192.168.1.256',
    'example.com',
    'printer',
    'local',
    'evil.local.example.com',
    '2001:4860:4860::8888',
    '::ffff:8.8.8.8',
    '::',
    '',
  ])('refuses %s', (host) => expect(isLocalPrinterHost(host)).toBe(false));
});
