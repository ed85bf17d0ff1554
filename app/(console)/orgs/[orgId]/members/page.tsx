import type { Metadata } from 'next';
import { GET as listMembers } from '@/app/v1/organizations/[orgId]/members/route';
import { GET as listInvitations } from '@/app/v1/organizations/[orgId]/invitations/route';
import { onboardingKeys } from '@/lib/onboarding/keys';
import { Prefetched } from '@/server/console/prefetched';
import { memberKeys } from '@/lib/members/keys';
import { MembersView } from './_components/members-view';

export const metadata: Metadata = { title: 'Members' };

export default async function Page({ params }: { params: Promise<{ orgId: string }> }) {
  const { orgId } = await params;
  // The first page of members and of pending invitations come with the page (for those who may list them; anyone
  // else's read is refused and the page shows what it showed before).
  return (
    <Prefetched
      reads={[
        {
          queryKey: memberKeys.list(orgId),
          handler: listMembers,
          path: `/v1/organizations/${orgId}/members`,
          params: { orgId },
          paged: true,
        },
        {
          queryKey: onboardingKeys.invitations(orgId),
          handler: listInvitations,
          path: `/v1/organizations/${orgId}/invitations`,
          params: { orgId },
          paged: true,
        },
      ]}
    >
      <MembersView orgId={orgId} />
    </Prefetched>
  );
}
