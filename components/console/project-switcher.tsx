'use client';

import { useParams, usePathname, useRouter } from 'next/navigation';
import { useEffect, useSyncExternalStore } from 'react';
import { Select } from '@/components/ui/select';
import { hasGrant, usePermissions } from '@/lib/access/queries';
import { useProjects } from '@/lib/orgs/queries';
import { DialogOnDemand } from './dialog-on-demand';
import { onDemand } from '@/components/ui/on-demand';
import { linkButtonClass } from './menu-button';

/** A project's pages: switching project keeps the one you are on. */
const PROJECT_SECTIONS = ['queues', 'subscriptions', 'alerts', 'silences'];

// The project last opened in each organization, kept in this browser so its organization's pages stay in it.
const storageKey = (orgId: string) => `svc.project.${orgId}`;
const CHOSEN = 'svc:project-chosen';
const onChosen = (notify: () => void) => {
  window.addEventListener(CHOSEN, notify);
  window.addEventListener('storage', notify);
  return () => {
    window.removeEventListener(CHOSEN, notify);
    window.removeEventListener('storage', notify);
  };
};
function remember(orgId: string, projectId: string) {
  try {
    if (localStorage.getItem(storageKey(orgId)) === projectId) return;
    localStorage.setItem(storageKey(orgId), projectId);
    window.dispatchEvent(new Event(CHOSEN));
  } catch {
    // Storage refused (private mode, quota): the switcher falls back to the first project.
  }
}
function recalled(orgId: string): string | null {
  try {
    return localStorage.getItem(storageKey(orgId));
  } catch {
    return null;
  }
}

/**
 * The project the console is in: the page's own, else (on an organization's pages) the last one opened here, else
 * the first. Undefined while there is none.
 */
export function useCurrentProject(orgId: string): string | undefined {
  const params = useParams<{ projectId?: string }>();
  const projects = useProjects(orgId);
  // The server renders without it; the browser reads it once hydrated.
  const last = useSyncExternalStore(
    onChosen,
    () => recalled(orgId),
    () => null,
  );
  useEffect(() => {
    if (params.projectId) remember(orgId, params.projectId);
  }, [orgId, params.projectId]);
  if (params.projectId) return params.projectId;
  return projects.items.find((p) => p.id === last)?.id ?? projects.items[0]?.id;
}

const projectDialog = onDemand(() => import('./project-dialog').then((m) => m.ProjectDialog));

/** The project switcher: the current project's name, the others to switch to, and "New project" for who may. */
export function ProjectSwitcher({ orgId, idSuffix }: { orgId: string; idSuffix: string }) {
  const router = useRouter();
  const pathname = usePathname();
  const projects = useProjects(orgId);
  const permissions = usePermissions(orgId);
  const current = useCurrentProject(orgId);
  const section = pathname.split('/')[5];
  const open = (projectId: string) =>
    router.push(
      `/orgs/${orgId}/projects/${projectId}/${PROJECT_SECTIONS.includes(section) ? section : 'subscriptions'}`,
    );
  return (
    <>
      <Select
        label="Project"
        value={current}
        placeholder={projects.isPending ? 'Loading…' : 'No projects yet'}
        options={projects.items.map((p) => ({ value: p.id, label: p.name }))}
        onValueChange={open}
      />
      {hasGrant(permissions.data, 'projects.create') && (
        <DialogOnDemand
          dialog={projectDialog}
          label="New project"
          className={linkButtonClass}
          props={{ orgId, idSuffix: `-${idSuffix}`, onCreated: (project) => open(project.id) }}
        />
      )}
    </>
  );
}
