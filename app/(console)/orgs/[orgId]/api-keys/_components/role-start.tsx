'use client';

import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { Select } from '@/components/ui/select';
import type { EffectivePermissions } from '@/lib/access/schema';
import type { Project } from '@/lib/orgs/schema';
import { POLICIES } from '@/lib/permissions';
import { describePolicy, listInWords } from '@/lib/policy-description';
import { unavailableBecause } from './permission-reasons';

const EVERY_PROJECT = 'all';
const ROLES = Object.keys(POLICIES).map((name) => ({ value: name, label: name, description: describePolicy(name)! }));

/** What a role grants in a scope, split into what this creator may give a key there and what they may not. */
export function roleStart(
  role: string,
  projectIds: string[],
  held: EffectivePermissions | undefined,
  projects: Pick<Project, 'id' | 'name'>[],
) {
  const permissions: string[] = [...(POLICIES[role] ?? [])];
  const given = permissions.filter((p) => unavailableBecause(p, held, projectIds, projects) === null);
  return { given, leftOut: permissions.filter((p) => !given.includes(p)) };
}

/**
 * A restricted key started from a role in a project ("what SilencesEditor may do, in Production"): it ticks the
 * role's permissions and the project, then the creator unticks what the key does not need. Permissions of the
 * role the creator does not hold there are left out, and said.
 */
export function RoleStart({
  held,
  projects,
  onStart,
}: {
  held: EffectivePermissions | undefined;
  projects: Project[];
  onStart: (start: { permissions: string[]; projectIds: string[] }) => void;
}) {
  const [role, setRole] = useState('SilencesEditor');
  const [scope, setScope] = useState(EVERY_PROJECT);
  const [said, setSaid] = useState('');
  const start = () => {
    const projectIds = scope === EVERY_PROJECT ? [] : [scope];
    const { given, leftOut } = roleStart(role, projectIds, held, projects);
    const where = projects.find((p) => p.id === scope)?.name ?? 'every project';
    onStart({ permissions: given, projectIds });
    setSaid(
      `Ticked ${given.length ? listInWords(given) : 'nothing'} of ${role}, in ${where}: untick what the key does not need.` +
        (leftOut.length ? ` Left out, not yours there: ${listInWords(leftOut)}.` : ''),
    );
  };
  return (
    <div className="space-y-2 rounded-md bg-slate-50 p-3 ring-1 ring-inset ring-slate-200">
      <div className="grid gap-2 sm:grid-cols-2">
        <Select id="access-role" label="Start from a role" value={role} options={ROLES} onValueChange={setRole} />
        <Select
          id="access-role-project"
          label="In"
          value={scope}
          options={[
            { value: EVERY_PROJECT, label: 'Every project' },
            ...projects.map((p) => ({ value: p.id, label: p.name })),
          ]}
          onValueChange={setScope}
        />
      </div>
      <Button variant="secondary" size="sm" onClick={start}>
        Tick its permissions
      </Button>
      <p role="status" className="text-xs text-slate-700">
        {said}
      </p>
    </div>
  );
}
