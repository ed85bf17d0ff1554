'use client';

import { useZone } from '@/components/console/time';
import { exactTime } from '@/lib/format/time';
import { Badge } from '@/components/ui/states';
import type { ApiKey } from '@/lib/api-keys/schema';

/** What the owner must act on: a rolled key still working until its stopsAt, or an expiry within 7 days. */
export function KeyBadges({ apiKey }: { apiKey: ApiKey }) {
  const zone = useZone();
  return (
    <>
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
