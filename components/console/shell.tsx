'use client';

import Link from 'next/link';
import { useParams, usePathname, useRouter } from 'next/navigation';
import { useState, type ReactNode } from 'react';
import { ChosenProjectProvider, ProjectSwitcher, useCurrentProject } from './project-switcher';
import { Select } from '@/components/ui/select';
import { useOrganizations, useProjects } from '@/lib/orgs/queries';
import { DialogOnDemand } from './dialog-on-demand';
import { NotFoundPanel } from './not-found-panel';
import { NotificationBell } from './notification-bell';
import { hasGrant, usePermissions } from '@/lib/access/queries';
import { useConsoleUser } from './user-context';
import { apiFetch } from '@/lib/api-client';
import { API_REFERENCE_PATH } from '@/lib/api-reference';
import { onDemand } from '@/components/ui/on-demand';
import { linkButtonClass, menuButtonClass } from './menu-button';
import type { RadixMobileMenu } from './mobile-menu-radix';

// next-auth's client (its CSRF and session helpers) loads when someone signs out, not with every console page.
async function signOut(options: { callbackUrl: string }) {
  const nextAuth = await import('next-auth/react');
  await nextAuth.signOut(options);
}

type NavItem = { href: string; label: string; exact?: boolean };

function NavLink({ item, pathname }: { item: NavItem; pathname: string }) {
  const active = item.exact ? pathname === item.href : pathname.startsWith(item.href);
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

/** Switchers, navigation and the user: the sidebar on wide screens, the menu's content on phones. */
function Navigation({ orgId, inMenu = false }: { orgId: string; inMenu?: boolean }) {
  const user = useConsoleUser();
  const router = useRouter();
  const pathname = usePathname();
  const orgs = useOrganizations();
  const projects = useProjects(orgId);
  const permissions = usePermissions(orgId);
  const org = orgs.items.find((o) => o.id === orgId);
  const projectId = useCurrentProject(orgId);
  const [signOutError, setSignOutError] = useState<string | null>(null);

  // Ends every session of the user on the server, then leaves this browser signed out too.
  const signOutEverywhere = async () => {
    setSignOutError(null);
    try {
      await apiFetch('/v1/sessions/end-all', { method: 'POST' });
    } catch (err) {
      setSignOutError(err instanceof Error ? err.message : 'Could not sign out of all sessions.');
      return;
    }
    await signOut({ callbackUrl: '/login?reason=ended' });
  };

  const orgNav: NavItem[] = [
    { href: `/orgs/${orgId}`, label: 'Overview', exact: true },
    { href: `/orgs/${orgId}/api-keys`, label: 'API keys' },
    { href: `/orgs/${orgId}/members`, label: 'Members' },
    { href: `/orgs/${orgId}/bots`, label: 'Bots' },
    ...(hasGrant(permissions.data, 'auditLog.read') ? [{ href: `/orgs/${orgId}/audit`, label: 'Audit log' }] : []),
    ...(hasGrant(permissions.data, 'orgs.update') ? [{ href: `/orgs/${orgId}/webhooks`, label: 'Webhooks' }] : []),
    { href: `/orgs/${orgId}/settings`, label: 'Settings' },
  ];
  const projectNav: NavItem[] = projectId
    ? [
        { href: `/orgs/${orgId}/projects/${projectId}/queues`, label: 'Queues' },
        { href: `/orgs/${orgId}/projects/${projectId}/subscriptions`, label: 'Subscriptions' },
        { href: `/orgs/${orgId}/projects/${projectId}/alerts`, label: 'Alerts' },
        { href: `/orgs/${orgId}/projects/${projectId}/silences`, label: 'Silences' },
      ]
    : [];

  return (
    <>
      <div className="space-y-4 p-4">
        <Select
          label="Organization"
          value={org ? orgId : undefined}
          placeholder={orgs.isPending ? 'Loading…' : 'Choose an organization'}
          options={orgs.items.map((o) => ({ value: o.id, label: o.name }))}
          onValueChange={(id) => router.push(`/orgs/${id}`)}
        />
        <DialogOnDemand
          dialog={newOrganizationDialog}
          label="New organization"
          className={linkButtonClass}
          props={{ idSuffix: inMenu ? 'menu' : 'side' }}
        />
        <ProjectSwitcher orgId={orgId} idSuffix={inMenu ? 'menu' : 'side'} />
      </div>
      <nav aria-label="Console" className="flex-1 space-y-6 px-3 pb-4">
        <div>
          <h2 className="px-3 pb-1 text-xs font-semibold uppercase tracking-wide text-slate-500">Organization</h2>
          {orgNav.map((item) => (
            <NavLink key={item.href} item={item} pathname={pathname} />
          ))}
        </div>
        <div>
          <h2 className="px-3 pb-1 text-xs font-semibold uppercase tracking-wide text-slate-500">Project</h2>
          {projectNav.length === 0 && (
            <p className="px-3 text-sm text-slate-500">{projects.isPending ? 'Loading…' : 'No projects'}</p>
          )}
          {projectNav.map((item) => (
            <NavLink key={item.href} item={item} pathname={pathname} />
          ))}
        </div>
        <div>
          <h2 className="px-3 pb-1 text-xs font-semibold uppercase tracking-wide text-slate-500">Developers</h2>
          <NavLink item={{ href: API_REFERENCE_PATH, label: 'API reference' }} pathname={pathname} />
        </div>
      </nav>
      <div className="border-t border-slate-200 p-4">
        <div className="flex items-start justify-between gap-2">
          <div className="min-w-0">
            <p className="truncate text-sm font-medium text-slate-900">{user.name}</p>
            <p className="truncate text-xs text-slate-500">{user.email}</p>
          </div>
          {!inMenu && <NotificationBell orgId={orgId} />}
        </div>
        <div className="mt-3 flex flex-col items-start gap-2">
          <Link href="/account/security" className="text-sm font-semibold text-indigo-700 hover:text-indigo-600">
            Security
          </Link>
          <button
            type="button"
            onClick={() => void signOut({ callbackUrl: '/login' })}
            className="text-sm font-semibold text-indigo-700 hover:text-indigo-600"
          >
            Sign out
          </button>
          <button
            type="button"
            onClick={() => void signOutEverywhere()}
            className="text-sm font-semibold text-indigo-700 hover:text-indigo-600"
          >
            Sign out of all sessions
          </button>
          {signOutError && (
            <p role="alert" className="text-xs text-red-700">
              {signOutError}
            </p>
          )}
        </div>
      </div>
    </>
  );
}

const newOrganizationDialog = onDemand(() => import('./new-organization').then((m) => m.NewOrganizationDialog));

type MenuImpl = typeof RadixMobileMenu;
const radixMenu = onDemand(() => import('./mobile-menu-radix').then((m) => m.RadixMobileMenu));

/**
 * Below `lg` the navigation is a menu: a button in the top bar opens it as a panel from the left. Radix's dialog is
 * about a tenth of a page's script and most visits never open the menu, so the button is first a plain one that
 * looks and reads the same; pointing at it or focusing it loads the dialog, and pressing it (a tap, a click, Enter,
 * Space) swaps the dialog in, already open.
 */
function MobileMenu({ orgId }: { orgId: string }) {
  const [Real, setReal] = useState<MenuImpl | null>(radixMenu.current);
  const [openOnLoad, setOpenOnLoad] = useState(false);
  if (Real)
    return (
      <Real defaultOpen={openOnLoad}>
        <Navigation orgId={orgId} inMenu />
      </Real>
    );
  return (
    <button
      type="button"
      // As Radix's closed trigger reads.
      aria-haspopup="dialog"
      aria-expanded="false"
      className={menuButtonClass}
      onPointerEnter={() => void radixMenu.load()}
      onFocus={() => void radixMenu.load()}
      onClick={() => {
        setOpenOnLoad(true);
        void radixMenu.load().then((impl) => setReal(() => impl));
      }}
    >
      <span aria-hidden="true">☰</span> Menu
    </button>
  );
}

/** The signed-in frame: a sidebar from `lg` up, a top bar with a menu below it; then the page. */
export function ConsoleShell({
  orgId,
  chosenProject,
  children,
}: {
  orgId: string;
  /** The project last opened in this organization in this browser, as the server read it. */
  chosenProject: string | null;
  children: ReactNode;
}) {
  const params = useParams<{ projectId?: string }>();
  const orgs = useOrganizations();
  const projects = useProjects(orgId);
  const org = orgs.items.find((o) => o.id === orgId);
  const orgMissing = orgs.isSuccess && !orgs.hasNextPage && !org;
  // An unknown project is only "Not found": no page, so no permission banner beside it.
  const projectMissing =
    !!params.projectId &&
    projects.isSuccess &&
    !projects.hasNextPage &&
    !projects.items.some((p) => p.id === params.projectId);

  return (
    <ChosenProjectProvider orgId={orgId} initial={chosenProject}>
      <div className="min-h-screen lg:flex">
        <a
          href="#main"
          className="sr-only focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:z-50 focus:rounded focus:bg-white focus:px-3 focus:py-2"
        >
          Skip to content
        </a>
        <header className="sticky top-0 z-30 flex items-center justify-between gap-3 border-b border-slate-200 bg-white px-4 py-2 lg:hidden">
          <MobileMenu orgId={orgId} />
          <p className="min-w-0 flex-1 truncate text-right text-sm font-medium text-slate-700">{org?.name ?? ''}</p>
          <NotificationBell orgId={orgId} />
        </header>
        <aside className="hidden w-64 shrink-0 flex-col border-r border-slate-200 bg-white lg:flex">
          <Navigation orgId={orgId} />
        </aside>
        <main id="main" className="min-w-0 flex-1 px-4 py-6 sm:px-6 lg:px-8 lg:py-8">
          {orgMissing ? (
            <NotFoundPanel title="Organization not found">
              It does not exist, or you are not a member of it.
            </NotFoundPanel>
          ) : projectMissing ? (
            <NotFoundPanel title="Not found" backHref={`/orgs/${orgId}`} backLabel="Back to the overview">
              This project does not exist in this organization.
            </NotFoundPanel>
          ) : (
            children
          )}
        </main>
      </div>
    </ChosenProjectProvider>
  );
}
