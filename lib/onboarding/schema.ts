import { z } from 'zod';
import { atMostCharacters } from '../characters';

/** What a person is called; the same rule for the first administrator, an invitee and `user:create`. */
export const personName = atMostCharacters(
  z.string().trim().min(1, 'Enter a name.'),
  100,
  'Use at most 100 characters.',
);
export const emailAddress = z
  .string()
  .trim()
  .max(254, 'Use at most 254 characters.')
  .pipe(z.email('Enter a valid email address.'))
  .transform((e) => e.toLowerCase());
/** Long enough to resist guessing offline; argon2id takes any length, the cap only bounds the work per request. */
export const newPassword = z
  .string()
  .min(12, 'Use at least 12 characters.')
  .max(200, 'Use at most 200 characters.')
  .meta({ description: 'At least 12 characters; stored only as an argon2id hash.' });
export const organizationName = atMostCharacters(
  z.string().trim().min(1, 'Enter a name.'),
  100,
  'Use at most 100 characters.',
);
const token = z.string().min(1, 'The token is missing.').max(200, 'This is not a token of this service.');

export const setupBody = z
  .strictObject({ token, name: personName, email: emailAddress, password: newPassword, organizationName })
  .meta({ id: 'Setup' });
export type SetupBody = z.infer<typeof setupBody>;

export const setPasswordBody = z.strictObject({ token, password: newPassword }).meta({ id: 'SetPassword' });
export type SetPasswordBody = z.infer<typeof setPasswordBody>;

export const setupResult = z
  .object({
    user: z.object({ id: z.uuid(), email: z.string(), name: z.string() }),
    organization: z.object({ id: z.uuid(), name: z.string() }),
  })
  .meta({ id: 'SetupResult' });

/** One step of an organization's start: whether it is done, and the project it was done in or is next to be done in. */
const startStep = (done: string, project: string) =>
  z.object({
    done: z.boolean().meta({ description: done }),
    projectId: z.uuid().nullable().meta({ description: project }),
  });

export const gettingStarted = z
  .object({
    alerting: startStep(
      'A project has alerting on.',
      'The oldest project with alerting on, else the oldest project; null: no project yet.',
    ),
    colleague: startStep('Another member joined, or an invitation is pending.', 'Always null.'),
    sender: startStep(
      "A project's Alertmanager API received a post of alerts.",
      'The project that received the latest post, else the oldest project with alerting on.',
    ),
    queue: startStep(
      'A queue has a subscription.',
      'A project with a subscription, else the oldest project with alerting on, else the oldest project.',
    ),
  })
  .meta({ id: 'GettingStarted' });
export type GettingStarted = z.infer<typeof gettingStarted>;
