'use client';

import { PageHeader } from '@/components/ui/states';
import { hasGrant, usePermissions } from '@/lib/access/queries';
import { useOrganizations } from '@/lib/orgs/queries';
import { KeyPolicy } from './key-policy';
import { OrganizationName } from './organization-name';
import { ProjectsSection } from './projects-section';
import { TwoFactorPolicy } from './two-factor-policy';

/**
 * The organization's settings: its name, its projects, and the second-factor and key policies. Every member sees
 * them; the permissions decide who changes them.
 */
export function SettingsView({ orgId, newProjectWithAlerting }: { orgId: string; newProjectWithAlerting: boolean }) {
  const permissions = usePermissions(orgId);
  const org = useOrganizations().items.find((o) => o.id === orgId);
  // Undefined while the permissions load: the controls wait, disabled, in their places (no layout shift).
  const may = (permission: Parameters<typeof hasGrant>[1]) =>
    permissions.isPending ? undefined : hasGrant(permissions.data, permission) === true;
  const canUpdateOrg = may('orgs.update');

  return (
    <>
      <PageHeader title="Settings" description="The organization, its projects, and the rules its members keep." />
      <OrganizationName orgId={orgId} name={org?.name} canChange={canUpdateOrg} />
      <ProjectsSection
        orgId={orgId}
        canCreate={may('projects.create')}
        canUpdate={may('projects.update')}
        newWithAlerting={newProjectWithAlerting}
      />
      <TwoFactorPolicy orgId={orgId} enabled={org?.requireTwoFactor} canChange={canUpdateOrg} />
      {/* Remounted when the saved policy arrives or changes, so the form starts from it. */}
      <KeyPolicy
        key={org ? JSON.stringify(org.keyPolicy) : 'loading'}
        orgId={orgId}
        policy={org ? org.keyPolicy : undefined}
        canChange={canUpdateOrg}
      />
    </>
  );
}
