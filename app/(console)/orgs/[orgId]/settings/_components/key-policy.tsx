'use client';

import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { FieldError } from '@/components/ui/field';
import { runMutation } from '@/components/console/feedback';
import { ApiRequestError } from '@/lib/api-client';
import { useUpdateOrganization } from '@/lib/orgs/queries';
import type { Organization } from '@/lib/orgs/schema';

type Policy = NonNullable<Organization['keyPolicy']>;

const input =
  'block w-full rounded-md border-0 px-2 py-1.5 text-sm text-slate-900 ring-1 ring-inset ring-slate-300 focus:ring-2 focus:ring-indigo-600 disabled:opacity-60';

/** The form's text as the body's policy: an empty lifetime is no limit, no ranges is anywhere. */
function toPolicy(days: string, requireRestrictions: boolean, ranges: string): Policy {
  const allowedIps = ranges
    .split(/[\s,]+/)
    .map((r) => r.trim())
    .filter(Boolean);
  return {
    maxLifetimeDays: days.trim() === '' ? null : Number(days),
    requireRestrictions,
    allowedIps: allowedIps.length ? allowedIps : null,
  };
}

/**
 * The organization key policy: the longest lifetime, whether keys must be restricted, and where keys may be used
 * from. Enforced on every new, rolled or changed key (400) and on use of older keys (403, kept). Those who may
 * change the organization edit it; everyone sees it.
 */
export function KeyPolicy({
  orgId,
  policy,
  canChange,
}: {
  orgId: string;
  policy: Organization['keyPolicy'] | undefined;
  canChange: boolean | undefined;
}) {
  const update = useUpdateOrganization(orgId);
  const [days, setDays] = useState(policy?.maxLifetimeDays?.toString() ?? '');
  const [restricted, setRestricted] = useState(policy?.requireRestrictions ?? false);
  const [ranges, setRanges] = useState(policy?.allowedIps?.join('\n') ?? '');
  const [errors, setErrors] = useState<{ days?: string; ranges?: string }>({});
  const disabled = canChange !== true || policy === undefined || update.isPending;

  const save = (keyPolicy: Policy | null) =>
    void runMutation(() => update.mutateAsync({ keyPolicy }), {
      success: keyPolicy ? 'Key policy saved.' : 'Key policy removed.',
      failure: 'Could not save the key policy',
      placeIssues: (error) => {
        if (!(error instanceof ApiRequestError)) return true;
        const at = (prefix: string) =>
          error.issues.find((i) => i.path === prefix || i.path.startsWith(`${prefix}.`))?.message;
        setErrors({ days: at('keyPolicy.maxLifetimeDays'), ranges: at('keyPolicy.allowedIps') });
        return !at('keyPolicy.maxLifetimeDays') && !at('keyPolicy.allowedIps');
      },
    }).then((outcome) => {
      if (!outcome.ok) return;
      setErrors({});
      if (keyPolicy) return;
      setDays('');
      setRestricted(false);
      setRanges('');
    });

  return (
    <section
      aria-labelledby="key-policy-title"
      className="mb-6 rounded-lg bg-white p-4 shadow-sm ring-1 ring-slate-200"
    >
      <h2 id="key-policy-title" className="text-sm font-semibold text-slate-900">
        API key policy
      </h2>
      <p className="mt-1 max-w-xl text-sm text-slate-600">
        Every new, rolled or changed key must keep it; older keys that break it are refused until it allows them.
        {canChange === false && ' Only an organization admin can change it.'}
      </p>
      <form
        className="mt-3 grid max-w-xl gap-3"
        onSubmit={(e) => {
          e.preventDefault();
          save(toPolicy(days, restricted, ranges));
        }}
      >
        <div>
          <label htmlFor="key-policy-days" className="text-sm font-medium text-slate-800">
            Longest lifetime in days
          </label>
          <input
            id="key-policy-days"
            inputMode="numeric"
            className={input}
            value={days}
            disabled={disabled}
            aria-describedby="key-policy-days-hint key-policy-days-error"
            aria-invalid={!!errors.days || undefined}
            onChange={(e) => setDays(e.currentTarget.value)}
          />
          <p id="key-policy-days-hint" className="text-xs text-slate-600">
            1 to 365; empty: no limit (keys may never expire).
          </p>
          <FieldError id="key-policy-days-error" message={errors.days} />
        </div>
        <div className="flex items-center gap-2">
          <input
            id="key-policy-restricted"
            type="checkbox"
            className="size-4 rounded border-slate-300 text-indigo-600 focus:ring-indigo-600 disabled:opacity-50"
            checked={restricted}
            disabled={disabled}
            onChange={(e) => setRestricted(e.currentTarget.checked)}
          />
          <label htmlFor="key-policy-restricted" className="text-sm text-slate-800">
            Require restricted keys (no Full access)
          </label>
        </div>
        <div>
          <label htmlFor="key-policy-ips" className="text-sm font-medium text-slate-800">
            Allowed IP ranges
          </label>
          <textarea
            id="key-policy-ips"
            rows={3}
            className={`${input} font-mono`}
            value={ranges}
            disabled={disabled}
            aria-describedby="key-policy-ips-hint key-policy-ips-error"
            aria-invalid={!!errors.ranges || undefined}
            onChange={(e) => setRanges(e.currentTarget.value)}
          />
          <p id="key-policy-ips-hint" className="text-xs text-slate-600">
            One address or CIDR range per line; every key must be limited to ranges inside them. Empty: anywhere.
          </p>
          <FieldError id="key-policy-ips-error" message={errors.ranges} />
        </div>
        <div className="flex flex-wrap gap-2">
          <Button type="submit" disabled={disabled} pending={update.isPending}>
            Save key policy
          </Button>
          {policy && (
            <Button variant="secondary" disabled={disabled} onClick={() => save(null)}>
              Remove key policy
            </Button>
          )}
        </div>
      </form>
    </section>
  );
}
