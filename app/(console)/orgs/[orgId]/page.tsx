import type { Metadata } from 'next';
import { GET as listApiKeys } from '@/app/v1/organizations/[orgId]/api-keys/route';
import { GET as listAuditEvents } from '@/app/v1/organizations/[orgId]/audit-events/route';
import { GET as readGettingStarted } from '@/app/v1/organizations/[orgId]/getting-started/route';
import { GET as countSilences } from '@/app/v1/organizations/[orgId]/projects/[projectId]/obs/silences/counts/route';
import { GET as readSubscriptionHealth } from '@/app/v1/organizations/[orgId]/subscription-health/route';
import { Prefetched } from '@/server/console/prefetched';
import { hasGrant } from '@/lib/access/grants';
import { apiKeyFilters, apiKeyKeys } from '@/lib/api-keys/keys';
import { auditKeys, RECENT_EVENTS } from '@/lib/audit/keys';
import { GETTING_STARTED_NEEDS } from '@/lib/onboarding/getting-started';
import { onboardingKeys } from '@/lib/onboarding/keys';
import type { Read } from '@/server/console/prefetch';
import { serverPermissions, serverProjects } from '@/server/console/shell-reads';
import { silenceKeys } from '@/lib/silences/keys';
import { subscriptionKeys } from '@/lib/subscriptions/keys';
import { Overview } from './_components/overview';

export const metadata: Metadata = { title: 'Overview' };

export default async function OrganizationHome({ params }: { params: Promise<{ orgId: string }> }) {
  const { orgId } = await params;
  // Every panel's data comes with the page, read as each panel asks for it: an admin's next steps, the keys expiring soon (everyone's or
  // the caller's own, as the permissions allow), the newest events, the projects' subscription health and each one's
  // silence counts. The permissions and projects are the layout's reads, made once per request.
  const [permissions, projects] = await Promise.all([serverPermissions(orgId), serverProjects(orgId)]);
  const base = `/v1/organizations/${orgId}`;
  const reads: Read[] = [];
  if (permissions) {
    const owner = hasGrant(permissions, 'apiKeys.list') ? 'all' : 'me';
    reads.push({
      queryKey: apiKeyKeys.list(orgId, owner, true),
      handler: listApiKeys,
      path: `${base}/api-keys`,
      params: { orgId },
      search: apiKeyFilters(owner, true),
      paged: true,
    });
    // An admin's next steps, read from the organization as it is now.
    if (GETTING_STARTED_NEEDS.every((p) => hasGrant(permissions, p)))
      reads.push({
        queryKey: onboardingKeys.gettingStarted(orgId),
        handler: readGettingStarted,
        path: `${base}/getting-started`,
        params: { orgId },
      });
    if (hasGrant(permissions, 'auditLog.read'))
      reads.push({
        queryKey: auditKeys.list(orgId, {}, RECENT_EVENTS),
        handler: listAuditEvents,
        path: `${base}/audit-events`,
        params: { orgId },
        paged: true,
        pageSize: RECENT_EVENTS,
      });
  }
  // Every project's failing subscriptions and dead letters: one read for the organization.
  reads.push({
    queryKey: subscriptionKeys.health(orgId),
    handler: readSubscriptionHealth,
    path: `${base}/subscription-health`,
    params: { orgId },
  });
  for (const project of projects?.items ?? []) {
    const params = { orgId, projectId: project.id };
    if (project.alertingEnabled)
      reads.push({
        queryKey: silenceKeys.counts(orgId, project.id),
        handler: countSilences,
        path: `${base}/projects/${project.id}/obs/silences/counts`,
        params,
      });
  }
  return (
    <Prefetched reads={reads}>
      <Overview orgId={orgId} />
    </Prefetched>
  );
}
