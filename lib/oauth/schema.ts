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

/** The console's code form: the same rule as the path parameter, with a message people can act on. */
export const userCodeForm = z.object({
  userCode: z
    .string()
    .trim()
    .regex(/^[A-Za-z]{4}-?[A-Za-z]{4}$/, 'Enter the 8-letter code your terminal shows, like WDJB-MJHT.'),
});

export type UserCodeForm = z.infer<typeof userCodeForm>;
