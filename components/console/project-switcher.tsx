'use client';

import { useParams, usePathname, useRouter } from 'next/navigation';
import { createContext, useContext, useEffect, useState, type ReactNode } from 'react';
import { rememberChosenProject } from '@/lib/console/chosen-project';
import { Select } from '@/components/ui/select';
import { hasGrant, usePermissions } from '@/lib/access/queries';
import { useProjects } from '@/lib/orgs/queries';
import { DialogOnDemand } from './dialog-on-demand';
import { onDemand } from '@/components/ui/on-demand';
import { linkButtonClass } from './menu-button';

/** A project's pages: switching project keeps the one you are on. */
const PROJECT_SECTIONS = ['queues', 'subscriptions', 'alerts', 'silences'];

const ChosenProject = createContext<string | null>(null);

/**
 * The organization's chosen project (`lib/console/chosen-project.ts`): `initial` is what the server read from the
 * cookie; opening a project's page chooses it, here once for every switcher and navigation under it.
 */
export function ChosenProjectProvider({
  orgId,
  initial,
  children,
}: {
  orgId: string;
  initial: string | null;
  children: ReactNode;
}) {
  const { projectId } = useParams<{ projectId?: string }>();
  const [chosen, setChosen] = useState(initial);
  // Adjusted while rendering (React's way for state that follows a prop), so no render shows the old choice.
  if (projectId && projectId !== chosen) setChosen(projectId);
  useEffect(() => {
    if (projectId) rememberChosenProject(orgId, projectId);
  }, [orgId, projectId]);
  return <ChosenProject.Provider value={chosen}>{children}</ChosenProject.Provider>;
}

/**
 * The project the console is in: the page's own, else (on an organization's pages) the last one opened in this
 * browser, else the first. Undefined while there is none.
 */
export function useCurrentProject(orgId: string): string | undefined {
  const params = useParams<{ projectId?: string }>();
  const projects = useProjects(orgId);
  const chosen = useContext(ChosenProject);
  if (params.projectId) return params.projectId;
  return projects.items.find((p) => p.id === chosen)?.id ?? projects.items[0]?.id;
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
