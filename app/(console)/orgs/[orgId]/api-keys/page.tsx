import type { Metadata } from 'next';
import { headers } from 'next/headers';
import { GET as listLeaks } from '@/app/v1/organizations/[orgId]/api-key-leaks/route';
import { GET as listApiKeys } from '@/app/v1/organizations/[orgId]/api-keys/route';
import { CODE_ACTS } from '@/server/console/code-acts';
import { Prefetched } from '@/server/console/prefetched';
import { hasGrant } from '@/lib/access/grants';
import { apiKeyFilters, apiKeyKeys, rotationKeys } from '@/lib/api-keys/keys';
import { searchText } from '@/lib/console/search-text';
import { serverPermissions } from '@/server/console/shell-reads';
import { clientAddress } from '@/lib/http/public-origin';
import { ApiKeysView } from './_components/api-keys-view';

export const metadata: Metadata = { title: 'API keys' };

export default async function Page({
  params,
  searchParams,
}: {
  params: Promise<{ orgId: string }>;
  searchParams: Promise<{ q?: string | string[] }>;
}) {
  const { orgId } = await params;
  const q = searchText((await searchParams).q);
  // The first page of keys and the leak notices come with the page. Which keys: everyone's for those who may list
  // them, as the view's first render asks (the permissions are the layout's read, made once per request).
  const permissions = await serverPermissions(orgId);
  // "Add my address" offers what a key's allowedIps would be checked against: the same address the API sees.
  const address = clientAddress(await headers());
  const myAddress = address === 'unknown' ? null : address;
  if (!permissions) return <ApiKeysView orgId={orgId} myAddress={myAddress} firstCall={CODE_ACTS.currentKey} />;
  const owner = hasGrant(permissions, 'apiKeys.list') ? 'all' : 'me';
  return (
    <Prefetched
      reads={[
        {
          queryKey: apiKeyKeys.list(orgId, owner, false, q),
          handler: listApiKeys,
          path: `/v1/organizations/${orgId}/api-keys`,
          params: { orgId },
          search: apiKeyFilters(owner, false, q),
          paged: true,
        },
        {
          queryKey: rotationKeys.leaks(orgId),
          handler: listLeaks,
          path: `/v1/organizations/${orgId}/api-key-leaks`,
          params: { orgId },
        },
      ]}
    >
      <ApiKeysView orgId={orgId} myAddress={myAddress} firstCall={CODE_ACTS.currentKey} />
    </Prefetched>
  );
}
