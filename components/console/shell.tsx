'use client';

import Link from 'next/link';
import { useParams, usePathname, useRouter } from 'next/navigation';
import { signOut } from 'next-auth/react';
import type { ReactNode } from 'react';
import { Select } from '@/components/ui/select';
import { EmptyState } from '@/components/ui/states';
import { useOrganizations, useProjects } from '@/lib/orgs/queries';
import { hasGrant, usePermissions } from '@/lib/access/queries';
import { useConsoleUser } from './user-context';

type NavItem = { href: string; label: string };

function NavLink({ item, active }: { item: NavItem; active: boolean }) {
  return (
    <Link
      href={item.href}
      aria-current={active ? 'page' : undefined}
      className={`block rounded-md px-3 py-2 text-sm font-medium ${active ? 'bg-indigo-50 text-indigo-700' : 'text-slate-700 hover:bg-slate-100'}`}
    >
      {item.label}
    </Link>
  );
}

/** The signed-in frame: organization and project switchers, navigation, the user and sign out. */
export function ConsoleShell({ orgId, children }: { orgId: string; children: ReactNode }) {
  const user = useConsoleUser();
  const router = useRouter();
  const pathname = usePathname();
  const params = useParams<{ projectId?: string }>();
  const orgs = useOrganizations();
  const projects = useProjects(orgId);
  const permissions = usePermissions(orgId);

  const org = orgs.data?.items.find((o) => o.id === orgId);
  const orgMissing = orgs.isSuccess && !org;
  const projectId = params.projectId ?? projects.data?.items[0]?.id;
  const section = pathname.split('/')[5] ?? 'subscriptions';

  const orgNav: NavItem[] = [
    { href: `/orgs/${orgId}/api-keys`, label: 'API keys' },
    { href: `/orgs/${orgId}/members`, label: 'Members' },
    { href: `/orgs/${orgId}/bots`, label: 'Bots' },
    ...(hasGrant(permissions.data, 'auditLog.read') ? [{ href: `/orgs/${orgId}/audit`, label: 'Audit log' }] : []),
  ];
  const projectNav: NavItem[] = projectId
    ? [
        { href: `/orgs/${orgId}/projects/${projectId}/subscriptions`, label: 'Subscriptions' },
        { href: `/orgs/${orgId}/projects/${projectId}/silences`, label: 'Silences' },
      ]
    : [];

  return (
    <div className="flex min-h-screen">
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:z-50 focus:rounded focus:bg-white focus:px-3 focus:py-2"
      >
        Skip to content
      </a>
      <aside className="flex w-64 shrink-0 flex-col border-r border-slate-200 bg-white">
        <div className="space-y-4 p-4">
          <Select
            label="Organization"
            value={org ? orgId : undefined}
            placeholder={orgs.isPending ? 'Loading…' : 'Choose an organization'}
            options={(orgs.data?.items ?? []).map((o) => ({ value: o.id, label: o.name }))}
            onValueChange={(id) => router.push(`/orgs/${id}/api-keys`)}
          />
          <Select
            label="Project"
            value={params.projectId ?? undefined}
            placeholder={projects.isPending ? 'Loading…' : 'Choose a project'}
            options={(projects.data?.items ?? []).map((p) => ({ value: p.id, label: p.name }))}
            onValueChange={(id) =>
              router.push(`/orgs/${orgId}/projects/${id}/${section === 'silences' ? 'silences' : 'subscriptions'}`)
            }
          />
        </div>
        <nav aria-label="Console" className="flex-1 space-y-6 px-3 pb-4">
          <div>
            <h2 className="px-3 pb-1 text-xs font-semibold uppercase tracking-wide text-slate-500">Organization</h2>
            {orgNav.map((item) => (
              <NavLink key={item.href} item={item} active={pathname.startsWith(item.href)} />
            ))}
          </div>
          <div>
            <h2 className="px-3 pb-1 text-xs font-semibold uppercase tracking-wide text-slate-500">Project</h2>
            {projectNav.length === 0 && (
              <p className="px-3 text-sm text-slate-500">{projects.isPending ? 'Loading…' : 'No projects'}</p>
            )}
            {projectNav.map((item) => (
              <NavLink key={item.href} item={item} active={pathname.startsWith(item.href)} />
            ))}
          </div>
        </nav>
        <div className="border-t border-slate-200 p-4">
          <p className="truncate text-sm font-medium text-slate-900">{user.name}</p>
          <p className="truncate text-xs text-slate-500">{user.email}</p>
          <button
            type="button"
            onClick={() => void signOut({ callbackUrl: '/login' })}
            className="mt-3 text-sm font-semibold text-indigo-700 hover:text-indigo-600"
          >
            Sign out
          </button>
        </div>
      </aside>
      <main id="main" className="min-w-0 flex-1 px-8 py-8">
        {orgMissing ? (
          <EmptyState title="Organization not found">It does not exist, or you are not a member of it.</EmptyState>
        ) : (
          children
        )}
      </main>
    </div>
  );
}
