import { describe, expect, it } from 'vitest';
import type { GeneralConfig } from '@comanda/contract';
import { testDatabaseKinds, type ApiClient } from '../src/testing/index.ts';
import { serverForSuite } from '../src/testing/suite.ts';

const full = { name: 'La Cantina', logoUrl: 'https://example.com/logo.png', address: 'Madero 10, Centro', phone: '55 1111 2222' };

describe.each(testDatabaseKinds())('settings on %s', (kind) => {
  let admin: ApiClient;
  const suite = serverForSuite(kind, {}, async (server) => {
    admin = await server.login(server.users.admin.email);
  });

  it('saves the business information and reads it back', async () => {
    const saved = await admin.put<GeneralConfig>('/api/config/general', {
      ...full,
      timezone: 'America/Monterrey',
      shiftStartHour: 18,
      shiftEndHour: 4,
    });
    expect(saved.status).toBe(200);
    expect(saved.body).toEqual({ ...full, timezone: 'America/Monterrey', shiftStartHour: 18, shiftEndHour: 4 });
    const waiter = await suite.server.login(suite.server.users.waiter.email);
    const read = await waiter.get<GeneralConfig>('/api/config/general');
    expect(read.body).toEqual(saved.body);
  });

  it('merges: fields not sent keep their stored value', async () => {
    const res = await admin.put<GeneralConfig>('/api/config/general', { ...full, name: 'La Cantina Roma' });
    expect(res.body).toMatchObject({ name: 'La Cantina Roma', timezone: 'America/Monterrey', shiftStartHour: 18, shiftEndHour: 4 });
  });

  it('lets only an admin save', async () => {
    for (const key of ['waiter', 'kitchen', 'barra'] as const) {
      const api = await suite.server.login(suite.server.users[key].email);
      expect((await api.put('/api/config/general', full)).status).toBe(403);
    }
    expect((await suite.server.anonymous().put('/api/config/general', full)).status).toBe(401);
    expect((await suite.server.anonymous().get('/api/config/general')).status).toBe(401);
  });

  it('refuses unknown fields, bad URLs, time zones and hours', async () => {
    for (const bad of [
      { ...full, createdAt: 1 },
      { ...full, logoUrl: 'javascript:x' },
      { ...full, timezone: 'Mars/Olympus' },
      { ...full, shiftStartHour: 24 },
    ]) {
      expect((await admin.put('/api/config/general', bad)).status).toBe(400);
    }
  });

  it('exposes only name and logo publicly', async () => {
    const res = await suite.server.anonymous().get<Record<string, unknown>>('/api/config/public');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ name: 'La Cantina Roma', logoUrl: full.logoUrl });
  });

  it('publishes a config event and writes an audit entry', async () => {
    const seen: string[] = [];
    const stop = suite.server.ctx.live.onEvent((e) => seen.push(e.topic));
    await admin.put('/api/config/general', full);
    stop();
    expect(seen).toContain('config');
    const entries = await suite.server.ctx.db.db
      .selectFrom('audit_log')
      .select('action')
      .where('action', '=', 'config.general.update')
      .execute();
    expect(entries.length).toBeGreaterThanOrEqual(3);
  });
});
