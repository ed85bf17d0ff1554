import { z } from 'zod';

/** A user code as people type it: any case, with or without the dash. Anything else is a malformed id (404). */
export const userCodeParams = z.object({ userCode: z.string().regex(/^[A-Za-z]{4}-?[A-Za-z]{4}$/) });

export const deviceAuthorization = z
  .object({
    userCode: z.string().meta({ example: 'WDJB-MJHT' }),
    clientId: z.string().meta({ example: 'svc-cli' }),
    clientName: z.string().meta({ example: 'svc CLI' }),
    createdAt: z.iso.datetime(),
    expiresAt: z.iso.datetime(),
    status: z.enum(['pending', 'approved', 'denied']),
  })
  .meta({ id: 'DeviceAuthorization' });

export type DeviceAuthorizationView = z.infer<typeof deviceAuthorization>;
