import { describe, expect, it } from 'vitest';
import { qrSvg, startQrWarmup, stopQrWarmup, warmEncoder } from './qr-svg.ts';

describe('the QR encoder', () => {
  it('draws a text as SVG, the same markup the second time', async () => {
    const svg = await qrSvg('http://192.168.1.20:3000/factura/ABC123');
    expect(svg).toMatch(/^<svg[^>]*>/);
    expect(await qrSvg('http://192.168.1.20:3000/factura/ABC123')).toBe(svg);
  });

  it('warms the encoder by drawing throwaway codes, leaving the drawn ones as they were', async () => {
    const svg = await qrSvg('http://192.168.1.20:3000/factura/DEF456');
    expect(await warmEncoder(3)).toBe(3);
    expect(await qrSvg('http://192.168.1.20:3000/factura/DEF456')).toBe(svg);
  });

  it('keeps each server’s warm-up timer in its own services: one per server, gone when it stops', async () => {
    const a = { services: new Map<string, unknown>() };
    const b = { services: new Map<string, unknown>() };
    await startQrWarmup(a);
    const timer = [...a.services.values()][0];
    await startQrWarmup(a);
    await startQrWarmup(b);
    expect(a.services.size).toBe(1);
    expect([...a.services.values()][0]).toBe(timer);
    expect([...b.services.values()][0]).not.toBe(timer);
    await stopQrWarmup(a);
    expect(a.services.size).toBe(0);
    expect(b.services.size).toBe(1);
    await stopQrWarmup(b);
    expect(b.services.size).toBe(0);
  });
});
