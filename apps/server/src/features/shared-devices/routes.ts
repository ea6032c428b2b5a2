import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  CurrentSharedDeviceResponseSchema,
  EnrollSharedDeviceBodySchema,
  PinLoginBodySchema,
  PinLoginResponseSchema,
  SharedDeviceListResponseSchema,
  SharedDeviceParamsSchema,
  SharedDevicePeopleResponseSchema,
  SharedDeviceResponseSchema,
} from '@comanda/contract';
import { requireUser } from '../../http/context.ts';
import { ADMIN } from '../../http/access.ts';
import { setSessionCookie } from '../../auth/sessions.ts';
import { enrollDevice, revokeDevice } from './device-commands.ts';
import { clearDeviceCookie, isSecure, presentDevice, resolveDevice, selectDevices, setDeviceCookie } from './device-store.ts';
import { devicePeople, pinLogin } from './pin-login.ts';

/**
 * Shared devices (tablets, phones at the bar): an admin enrolls the browser they are on; staff
 * then switch user there by tapping their name and typing their PIN. E-mail and password sign-in
 * is unchanged (and the only way in for the admin).
 */
export const sharedDevicesRoutes: FastifyPluginAsync = async (base) => {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const { ctx } = app;

  app.get(
    '/api/shared-devices',
    { config: { access: ADMIN }, schema: { response: { 200: SharedDeviceListResponseSchema } } },
    async (request) => {
      const current = await resolveDevice(ctx, request.cookies);
      const rows = await selectDevices(ctx.db.db).orderBy('shared_devices.created_at', 'desc').orderBy('shared_devices.id').execute();
      return { devices: rows.map((row) => presentDevice(row, current?.id ?? null)) };
    },
  );

  app.post(
    '/api/shared-devices',
    { config: { access: ADMIN }, schema: { body: EnrollSharedDeviceBodySchema, response: { 200: SharedDeviceResponseSchema } } },
    async (request, reply) => {
      const current = await resolveDevice(ctx, request.cookies);
      const { device, secret } = await enrollDevice(request.ctx, requireUser(request.user), request.body, current);
      setDeviceCookie(reply, secret, isSecure(ctx.config.SECURE_COOKIES, request.protocol));
      return { device };
    },
  );

  app.post(
    '/api/shared-devices/:deviceId/revoke',
    { config: { access: ADMIN }, schema: { params: SharedDeviceParamsSchema, response: { 200: SharedDeviceResponseSchema } } },
    async (request, reply) => {
      const current = await resolveDevice(ctx, request.cookies);
      const device = await revokeDevice(request.ctx, requireUser(request.user), {
        id: request.params.deviceId,
        currentId: current?.id ?? null,
        ownSession: request.sessionHash,
      });
      if (device.current) clearDeviceCookie(reply);
      return { device };
    },
  );

  app.get(
    '/api/shared-devices/current',
    { config: { access: 'public' }, schema: { response: { 200: CurrentSharedDeviceResponseSchema } } },
    async (request) => {
      const device = await resolveDevice(ctx, request.cookies);
      return device
        ? { enrolled: true, name: device.name, idleLockSeconds: Number(device.idle_lock_seconds) }
        : { enrolled: false, name: null, idleLockSeconds: 0 };
    },
  );

  // Public like the keypad it feeds; only an enrolled device's cookie gets names (any other browser: none).
  app.get(
    '/api/shared-devices/current/people',
    { config: { access: 'public' }, schema: { response: { 200: SharedDevicePeopleResponseSchema } } },
    async (request) => ({ people: await devicePeople(ctx, await resolveDevice(ctx, request.cookies)) }),
  );

  app.post(
    '/api/auth/pin-login',
    { config: { access: 'public' }, schema: { body: PinLoginBodySchema, response: { 200: PinLoginResponseSchema } } },
    async (request, reply) => {
      const device = await resolveDevice(ctx, request.cookies);
      const { user, token } = await pinLogin(request.ctx, {
        device,
        userId: request.body.userId,
        pin: request.body.pin,
        ip: request.ip,
        previousSession: request.sessionHash,
      });
      setSessionCookie(ctx, reply, token, isSecure(ctx.config.SECURE_COOKIES, request.protocol));
      return { user };
    },
  );
};
