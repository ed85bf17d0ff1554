import type { Metadata } from 'next';
import { GET as listAuditEvents } from '@/app/v1/organizations/[orgId]/audit-events/route';
import { Prefetched } from '@/server/console/prefetched';
import { auditKeys } from '@/lib/audit/keys';
import { AuditLogView } from './_components/audit-log-view';

export const metadata: Metadata = { title: 'Audit log' };

export default async function Page({ params }: { params: Promise<{ orgId: string }> }) {
  const { orgId } = await params;
  // The newest events, unfiltered, come with the page (for those who may read the log; anyone else's read is
  // refused and the page says why, from the permissions the layout read).
  return (
    <Prefetched
      reads={[
        {
          queryKey: auditKeys.list(orgId, {}),
          handler: listAuditEvents,
          path: `/v1/organizations/${orgId}/audit-events`,
          params: { orgId },
          paged: true,
        },
      ]}
    >
      <AuditLogView orgId={orgId} />
    </Prefetched>
  );
}
