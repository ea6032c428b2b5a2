import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  SetTerminalEnabledBodySchema,
  TerminalListResponseSchema,
  TerminalParamsSchema,
  TerminalResponseSchema,
  TerminalStatusSchema,
  TestChargeBodySchema,
  TestChargeResponseSchema,
  IdSchema,
} from '@comanda/contract';
import { requireUser } from '../../http/context.ts';
import { AppError, notFound } from '../../http/errors.ts';
import { ADMIN, STAFF_FLOOR } from '../../http/access.ts';
import { audit } from '../../http/audit.ts';
import { mutate } from '../../http/transaction.ts';
import { cardGateway } from '../../model/card-payments/card-gateway.ts';
import { listTerminals, requireTerminal, setTerminalEnabled } from './terminal-config.ts';
import { MESSAGES } from '../../http/messages.ts';

export const TERMINAL_SETTINGS_MESSAGES = MESSAGES.terminalSettings;

export const terminalSettingsRoutes: FastifyPluginAsync = async (base) => {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const { ctx } = app;

  app.get('/api/terminals', { config: { access: ADMIN }, schema: { response: { 200: TerminalListResponseSchema } } }, async () => ({
    terminals: await listTerminals(ctx, TERMINAL_SETTINGS_MESSAGES.refreshError),
  }));

  // For the payment dialog: only what may take a payment.
  app.get(
    '/api/terminals/enabled',
    { config: { access: STAFF_FLOOR }, schema: { response: { 200: TerminalListResponseSchema } } },
    async () => ({
      terminals: (await listTerminals(ctx, TERMINAL_SETTINGS_MESSAGES.loadError)).filter((t) => t.enabled),
    }),
  );

  app.get('/api/terminals/status', { config: { access: ADMIN }, schema: { response: { 200: TerminalStatusSchema } } }, async () => {
    const gw = cardGateway(ctx);
    const base = { mode: gw.mode, api: gw.api, token: gw.tokenPreview };
    try {
      const terminals = await gw.provider.listTerminals();
      return { ...base, connected: true, terminalCount: terminals.length, message: null };
    } catch {
      return { ...base, connected: false, terminalCount: null, message: TERMINAL_SETTINGS_MESSAGES.refreshError };
    }
  });

  app.put(
    '/api/terminals/:id',
    {
      config: { access: ADMIN },
      schema: { params: TerminalParamsSchema, body: SetTerminalEnabledBodySchema, response: { 200: TerminalResponseSchema } },
    },
    async (request) => {
      const user = requireUser(request.user);
      const terminal = await requireTerminal(ctx, request.params.id, TERMINAL_SETTINGS_MESSAGES.toggleError);
      const { enabled } = request.body;
      await mutate(request.ctx, async (trx, emit) => {
        const now = ctx.clock.now();
        await setTerminalEnabled(trx, terminal.id, enabled, now);
        await audit(trx, now, {
          actor: { id: user.id, displayName: user.displayName },
          action: enabled ? 'terminal.enabled' : 'terminal.disabled',
          entity: 'terminal',
          entityId: terminal.id,
        });
        emit({ topic: 'terminals', type: 'terminal.updated', id: terminal.id });
      });
      return { terminal: { ...terminal, enabled } };
    },
  );

  // Point terminals take integrated payments only in PDV mode; the settings tab offers the switch.
  app.post(
    '/api/terminals/:id/pdv-mode',
    { config: { access: ADMIN }, schema: { params: TerminalParamsSchema, response: { 200: TerminalResponseSchema } } },
    async (request) => {
      const user = requireUser(request.user);
      const terminal = await requireTerminal(ctx, request.params.id, TERMINAL_SETTINGS_MESSAGES.toggleError);
      try {
        await cardGateway(ctx).provider.setOperatingMode({
          terminalId: terminal.id,
          mode: 'PDV',
          idempotencyKey: `comanda-pdv-${terminal.id}-${ctx.clock.now()}`,
        });
      } catch {
        throw new AppError(502, 'provider_unavailable', TERMINAL_SETTINGS_MESSAGES.toggleError);
      }
      // The audit row claims the request's key: a retry after a lost answer is answered it again.
      await mutate(request.ctx, async (trx, emit) => {
        await audit(trx, ctx.clock.now(), {
          actor: { id: user.id, displayName: user.displayName },
          action: 'terminal.pdv_mode',
          entity: 'terminal',
          entityId: terminal.id,
        });
        emit({ topic: 'terminals', type: 'terminal.updated', id: terminal.id });
      });
      return { terminal: { ...terminal, operatingMode: 'PDV' } };
    },
  );

  app.post(
    '/api/terminals/test-charge',
    { config: { access: ADMIN }, schema: { body: TestChargeBodySchema, response: { 200: TestChargeResponseSchema } } },
    async (request) => {
      const user = requireUser(request.user);
      const test = await cardGateway(ctx).tests.start(request.body.terminalId);
      await mutate(request.ctx, (trx) =>
        audit(trx, ctx.clock.now(), {
          actor: { id: user.id, displayName: user.displayName },
          action: 'terminal.test_charge',
          entity: 'terminal',
          entityId: request.body.terminalId,
          data: { testId: test.id, amount: test.amount, externalReference: test.externalReference },
        }),
      );
      return { test };
    },
  );

  app.get(
    '/api/terminals/test-charge/:id',
    { config: { access: ADMIN }, schema: { params: z.object({ id: IdSchema }), response: { 200: TestChargeResponseSchema } } },
    async (request) => {
      const test = cardGateway(ctx).tests.get(request.params.id);
      if (!test) throw notFound(TERMINAL_SETTINGS_MESSAGES.testNotFound);
      return { test };
    },
  );
};
