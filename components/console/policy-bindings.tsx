'use client';

import { useProjects } from '@/lib/orgs/queries';
import { sortedBindings } from './roles-editor';

type Binding = { policy: string; projectId: string | null };

/** Each policy binding with its scope: "in Production" for a project binding, nothing for the organization. */
export function PolicyBindings({ orgId, bindings }: { orgId: string; bindings: Binding[] }) {
  const projects = useProjects(orgId);
  if (bindings.length === 0) return <span className="text-slate-500">—</span>;
  const projectName = (id: string) => projects.items.find((p) => p.id === id)?.name ?? 'a project';
  const sorted = sortedBindings(bindings);
  return (
    <ul className="flex flex-wrap gap-1">
      {sorted.map((b) => (
        <li
          key={`${b.policy}:${b.projectId ?? 'org'}`}
          className="rounded-md bg-slate-100 px-2 py-0.5 text-xs text-slate-800 ring-1 ring-inset ring-slate-300"
        >
          {b.policy}
          {b.projectId && <span className="text-slate-600"> in {projectName(b.projectId)}</span>}
        </li>
      ))}
    </ul>
  );
}
