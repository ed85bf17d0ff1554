'use client';

import { Switch } from 'radix-ui';
import { runMutation } from '@/components/console/feedback';
import { useUpdateOrganization } from '@/lib/orgs/queries';

/**
 * The organization's "require a second factor" policy: every member sees it, those who may change the organization
 * (`canChange`) can switch it. Turning it on needs a factor of one's own (the API answers 403 `two_factor_required`
 * otherwise, and the console then offers enrolment). While the organization or the permissions load (`undefined`)
 * the switch waits, disabled, in its place.
 */
export function TwoFactorPolicy({
  orgId,
  enabled,
  canChange,
}: {
  orgId: string;
  enabled: boolean | undefined;
  canChange: boolean | undefined;
}) {
  const update = useUpdateOrganization(orgId);
  const change = (requireTwoFactor: boolean) =>
    void runMutation(() => update.mutateAsync({ requireTwoFactor }), {
      success: requireTwoFactor
        ? 'Members now need a second factor to use this organization.'
        : 'Members no longer need a second factor here.',
      failure: 'Could not change the second-factor policy',
    });
  return (
    <section
      aria-labelledby="policy-2fa-label"
      className="mb-6 flex flex-wrap items-start justify-between gap-4 rounded-lg bg-white p-4 shadow-sm ring-1 ring-slate-200"
    >
      <div className="max-w-xl">
        <label id="policy-2fa-label" htmlFor="policy-2fa" className="text-sm font-semibold text-slate-900">
          Require a second factor
        </label>
        <p id="policy-2fa-hint" className="mt-1 text-sm text-slate-600">
          Members who sign in with a password and have no authenticator app or passkey are refused until they set one
          up. Single sign-on members follow their identity provider&apos;s policy.
          {canChange === false && <span className="sr-only"> Only an organization admin can change it.</span>}
        </p>
      </div>
      <Switch.Root
        id="policy-2fa"
        checked={update.isPending ? !!update.variables?.requireTwoFactor : !!enabled}
        disabled={update.isPending || enabled === undefined || canChange !== true}
        title={canChange === false ? 'Only an organization admin can change this' : undefined}
        onCheckedChange={change}
        aria-describedby="policy-2fa-hint"
        className="relative inline-flex h-6 w-11 shrink-0 items-center rounded-full bg-slate-300 transition-colors focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600 disabled:opacity-60 data-[state=checked]:bg-indigo-600"
      >
        <Switch.Thumb className="block size-5 translate-x-0.5 rounded-full bg-white shadow transition-transform data-[state=checked]:translate-x-[1.375rem]" />
      </Switch.Root>
    </section>
  );
}
