import { z } from 'zod';

/** One address a phone or tablet can open, with its QR code (SVG text rendered by the server). */
export const DeviceAddressSchema = z.object({
  url: z.string(),
  kind: z.enum(['local', 'lan']),
  secure: z.boolean(),
  qrSvg: z.string(),
});
export type DeviceAddress = z.infer<typeof DeviceAddressSchema>;

/** GET /api/devices (admin): where devices connect, and the local CA when HTTPS is on. */
export const DevicesInfoSchema = z.object({
  hostName: z.string(),
  addresses: z.array(DeviceAddressSchema),
  /** False when HOST keeps the server to this machine (127.0.0.1): no phone can reach it then. */
  listensOnNetwork: z.boolean(),
  https: z.object({
    enabled: z.boolean(),
    port: z.number().int().nullable(),
    /** Path of the CA certificate download (served over plain HTTP too), or null when HTTPS is off. */
    caPath: z.string().nullable(),
    caFingerprint: z.string().nullable(),
    certificateExpiresAt: z.number().int().nullable(),
  }),
});
export type DevicesInfo = z.infer<typeof DevicesInfoSchema>;
