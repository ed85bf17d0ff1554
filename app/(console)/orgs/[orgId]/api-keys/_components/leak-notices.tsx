'use client';

import { ExactTime } from '@/components/console/time';
import { Button } from '@/components/ui/button';
import { useDismissLeakNotice, useLeakNotices } from '@/lib/api-keys/rotation-queries';

/** Keys a secret scanner found in public and this service revoked: named, where, when, until dismissed. */
export function LeakNotices({ orgId }: { orgId: string }) {
  const leaks = useLeakNotices(orgId);
  const dismiss = useDismissLeakNotice(orgId);
  const items = leaks.data?.items ?? [];
  if (items.length === 0) return null;
  return (
    <section aria-label="Leaked keys" className="mb-4 space-y-2">
      {items.map((leak) => (
        <div
          key={leak.keyId}
          role="alert"
          className="flex flex-wrap items-start justify-between gap-3 rounded-md border border-red-200 bg-red-50 p-3 text-sm text-red-900"
        >
          <p className="min-w-0 break-words">
            <strong>
              “{leak.name}” ({leak.prefix}…) was found in public and has been revoked.
            </strong>{' '}
            Found{' '}
            {leak.url ? (
              <a className="underline" href={leak.url} rel="noreferrer noopener" target="_blank">
                {leak.url}
              </a>
            ) : (
              'by a secret scanner'
            )}{' '}
            on <ExactTime iso={leak.leakedAt} />. Create a new key and remove the leaked one from where it was
            published.
          </p>
          <Button
            variant="secondary"
            size="sm"
            aria-label={`Dismiss the notice about ${leak.name}`}
            pending={dismiss.isPending && dismiss.variables === leak.keyId}
            onClick={() => dismiss.mutate(leak.keyId)}
          >
            Dismiss
          </Button>
        </div>
      ))}
    </section>
  );
}
