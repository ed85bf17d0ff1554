import { cookies } from 'next/headers';
import type { ReactNode } from 'react';
import { chosenProjectCookie } from '@/lib/console/chosen-project';
import { ConsoleShell } from '@/components/console/shell';
import { Prefetched } from '@/server/console/prefetched';
import { organizationsRead, permissionsRead, projectsRead } from '@/server/console/shell-reads';

/**
 * Every page of an organization: the shell, rendered on the server with what it and most pages read first (the
 * organizations, the organization's projects, the caller's permissions), so the first paint already holds the
 * navigation and the panels that depend on them, instead of waiting for three requests after hydration.
 */
export default async function OrganizationLayout({
  children,
  params,
}: {
  children: ReactNode;
  params: Promise<{ orgId: string }>;
}) {
  const { orgId } = await params;
  // The project last opened here (the switcher shows it on the organization's pages); only an id, which the shell
  // looks for among the projects the caller may see.
  const chosen = (await cookies()).get(chosenProjectCookie(orgId))?.value ?? null;
  return (
    <Prefetched reads={[organizationsRead(), projectsRead(orgId), permissionsRead(orgId)]}>
      <ConsoleShell orgId={orgId} chosenProject={chosen}>
        {children}
      </ConsoleShell>
    </Prefetched>
  );
}
