'use client';

import { Switch } from 'radix-ui';
import { usePathname, useRouter } from 'next/navigation';
import { useState } from 'react';
import { runMutation } from '@/components/console/feedback';
import { ListStates } from '@/components/console/list-states';
import { LoadMore } from '@/components/console/load-more';
import { Button } from '@/components/ui/button';
import { ActionsCell, DataTable, RowAction } from '@/components/ui/data-table';
import { EmptyState } from '@/components/ui/states';
import { useProjects, useUpdateProject } from '@/lib/orgs/queries';
import type { Project } from '@/lib/orgs/schema';
import { ProjectDialog } from '@/components/console/project-dialog';

const switchRoot =
  'relative inline-flex h-6 w-11 shrink-0 items-center rounded-full bg-slate-300 transition-colors focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600 disabled:opacity-60 data-[state=checked]:bg-indigo-600';
const switchThumb =
  'block size-5 translate-x-0.5 rounded-full bg-white shadow transition-transform data-[state=checked]:translate-x-[1.375rem]';

/**
 * The organization's projects: create (`projects.create`), rename and switch alerting (`projects.update`). Projects
 * are never deleted here. Everyone sees the list; the controls are disabled for those who may not change it.
 */
export function ProjectsSection({
  orgId,
  canCreate,
  canUpdate,
  newWithAlerting = false,
}: {
  orgId: string;
  canCreate: boolean | undefined;
  canUpdate: boolean | undefined;
  /** Opens New project at once with alerting on (the overview's step "A project with alerting" links here so). */
  newWithAlerting?: boolean;
}) {
  const projects = useProjects(orgId);
  const update = useUpdateProject(orgId);
  const router = useRouter();
  const pathname = usePathname();
  const [creating, setCreating] = useState(false);
  // Asked for by the address: open once the permissions say the caller may create, until closed.
  const [alertingFirst, setAlertingFirst] = useState(newWithAlerting);
  const dialogOpen = creating || (alertingFirst && canCreate === true);
  const openCreating = (open: boolean) => {
    setCreating(open);
    if (open || !alertingFirst) return;
    // Closed: the address no longer asks for it, so a reload or Back does not open it again.
    setAlertingFirst(false);
    router.replace(pathname, { scroll: false });
  };
  // The project last renamed stays in state after its dialog closes, so the dialog can return focus to its button.
  const [renaming, setRenaming] = useState<Project | null>(null);
  const [renameOpen, setRenameOpen] = useState(false);

  const switchAlerting = (project: Project, alertingEnabled: boolean) =>
    void runMutation(() => update.mutateAsync({ projectId: project.id, alertingEnabled }), {
      success: alertingEnabled
        ? `Alerting is on in ${project.name}: its silences and alerts are served.`
        : `Alerting is off in ${project.name}: its silence and alert routes answer 404.`,
      failure: `Could not switch alerting in ${project.name}`,
    });
  const pendingFor = (id: string) => (update.isPending && update.variables?.projectId === id ? update.variables : null);

  return (
    <section aria-labelledby="projects-title" className="mb-6">
      <div className="mb-3 flex flex-wrap items-end justify-between gap-3">
        <div>
          <h2 id="projects-title" className="text-base font-semibold text-slate-900">
            Projects
          </h2>
          <p className="mt-1 max-w-xl text-sm text-slate-600">
            Subscriptions and silences belong to a project. Alerting off hides its silences and alerts.
            {canUpdate === false && ' Only an organization admin can change them.'}
          </p>
        </div>
        {canCreate && <Button onClick={() => openCreating(true)}>New project</Button>}
      </div>
      <ListStates
        list={projects}
        loading="Loading projects"
        columns={3}
        rows={2}
        errorTitle="Could not load projects"
        empty={<EmptyState title="No projects yet">Make one to hold subscriptions and silences.</EmptyState>}
      >
        <DataTable
          caption="Projects"
          columns={['Name', 'Alerting', null]}
          minWidth="28rem"
          stacked
          footer={<LoadMore list={projects} />}
        >
          {projects.items.map((p) => {
            const pending = pendingFor(p.id);
            return (
              <tr key={p.id}>
                <th scope="row" className="px-4 py-3 text-left font-medium text-slate-900">
                  {p.name}
                </th>
                <td data-label="Alerting" className="px-4 py-3">
                  <Switch.Root
                    aria-label={`Alerting in ${p.name}`}
                    checked={pending?.alertingEnabled ?? p.alertingEnabled}
                    disabled={canUpdate !== true || !!pending}
                    onCheckedChange={(on) => switchAlerting(p, on)}
                    className={switchRoot}
                  >
                    <Switch.Thumb className={switchThumb} />
                  </Switch.Root>
                </td>
                <ActionsCell>
                  {canUpdate && (
                    <RowAction
                      label="Rename"
                      name={`Rename ${p.name}`}
                      onClick={() => {
                        setRenaming(p);
                        setRenameOpen(true);
                      }}
                    />
                  )}
                </ActionsCell>
              </tr>
            );
          })}
        </DataTable>
      </ListStates>
      <ProjectDialog orgId={orgId} open={dialogOpen} onOpenChange={openCreating} alertingOn={alertingFirst} />
      {renaming && <ProjectDialog orgId={orgId} project={renaming} open={renameOpen} onOpenChange={setRenameOpen} />}
    </section>
  );
}
