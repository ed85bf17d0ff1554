'use client';

import { useZone } from '@/components/console/time';
import { exactTime } from '@/lib/format/time';
import { Badge } from '@/components/ui/states';
import type { ApiKey } from '@/lib/api-keys/schema';

/** The key's restrictions in words, for the badge's title and screen readers. */
export function restrictionSummary(apiKey: ApiKey): string {
  const parts = [
    apiKey.permissions && `${apiKey.permissions.length} permission${apiKey.permissions.length === 1 ? '' : 's'}`,
    apiKey.projectIds && `${apiKey.projectIds.length} project${apiKey.projectIds.length === 1 ? '' : 's'}`,
    apiKey.allowedIps && `from ${apiKey.allowedIps.join(', ')}`,
  ].filter(Boolean);
  return parts.length ? `Restricted to ${parts.join('; ')}` : 'Full access';
}

/**
 * What the owner must act on: a key the organization's key policy refuses, a rolled key still working until its
 * stopsAt, or an expiry within 7 days; and whether the key is restricted.
 */
export function KeyBadges({ apiKey }: { apiKey: ApiKey }) {
  const zone = useZone();
  return (
    <>
      {apiKey.policyViolations.length > 0 && (
        <span title={`Refused: breaks the key policy (${apiKey.policyViolations.join(', ')})`}>
          <Badge tone="red">Breaks key policy</Badge>
          <span className="sr-only">: {apiKey.policyViolations.join(', ')}</span>
        </span>
      )}
      {(apiKey.permissions || apiKey.projectIds || apiKey.allowedIps) && (
        <span title={restrictionSummary(apiKey)}>
          <Badge tone="indigo">Restricted</Badge>
          <span className="sr-only">: {restrictionSummary(apiKey)}</span>
        </span>
      )}
      {apiKey.stopsAt && (
        <span title={`Works until ${exactTime(apiKey.stopsAt, zone)}`}>
          <Badge tone="amber">Rolling</Badge>
          <span className="sr-only">, works until {exactTime(apiKey.stopsAt, zone)}</span>
        </span>
      )}
      {apiKey.expiringSoon && !apiKey.stopsAt && <Badge tone="amber">Expiring soon</Badge>}
    </>
  );
}
