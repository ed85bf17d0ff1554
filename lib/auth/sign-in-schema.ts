import { z } from 'zod';

export const signInSchema = z.object({
  email: z.string().trim().min(1, 'Enter your email address.').email('Enter a valid email address.'),
  password: z.string().min(1, 'Enter your password.'),
});

/** next-auth's error when the password was right and the second step must follow, or its code was wrong. */
export const SECOND_FACTOR_REQUIRED = 'second_factor_required';
export const SECOND_FACTOR_WRONG = 'second_factor_wrong';

export type SignInInput = z.infer<typeof signInSchema>;

/** Only same-site paths may be returned to after sign-in (no open redirect). */
export function safeReturnPath(value: string | null | undefined): string {
  return value && value.startsWith('/') && !value.startsWith('//') && !value.startsWith('/\\') ? value : '/orgs';
}
