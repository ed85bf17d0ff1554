'use client';

import { useEffect, useRef } from 'react';
import { Button } from '@/components/ui/button';
import { FieldError } from '@/components/ui/field';
import { Select } from '@/components/ui/select';
import { ApiRequestError } from '@/lib/api-client';
import { useProjects } from '@/lib/orgs/queries';
import { POLICIES } from '@/lib/permissions';
import { describePolicy } from '@/lib/policy-description';

export type Binding = { policy: string; projectId: string | null };

const ORGANIZATION = 'organization';
// Each role says what it grants, in words made from its permissions.
const POLICY_OPTIONS = Object.keys(POLICIES).map((p) => ({ value: p, label: p, description: describePolicy(p)! }));

/** Bindings in the order they are listed everywhere: the organization's first, then by policy name. */
export function sortedBindings(bindings: Binding[]): Binding[] {
  return [...bindings].sort(
    (a, b) => Number(a.projectId !== null) - Number(b.projectId !== null) || a.policy.localeCompare(b.policy),
  );
}

/**
 * Where a server issue about `policies` belongs: `policies.2` or `policies.2.projectId` under row 2, `policies`
 * itself (too many, a duplicate) under the whole list. Answers whether any issue was left for a toast.
 */
export function rolesIssues(error: unknown): { rows: Record<number, string>; list?: string; leftOver: boolean } {
  const rows: Record<number, string> = {};
  let list: string | undefined;
  let leftOver = !(error instanceof ApiRequestError) || error.issues.length === 0;
  if (error instanceof ApiRequestError)
    for (const issue of error.issues) {
      const row = /^policies\.(\d+)(\.|$)/.exec(issue.path);
      if (row) rows[Number(row[1])] = issue.message;
      else if (issue.path === 'policies') list = issue.message;
      else leftOver = true;
    }
  return { rows, list, leftOver };
}

/**
 * Roles by scope, one row each: a policy, and where it holds (the whole organization or one project). Used by
 * Invite, Change roles and New bot. Removing a row moves focus to the Remove button now in its place, or Add role.
 */
export function RolesEditor({
  orgId,
  idPrefix,
  value,
  onChange,
  rowErrors = {},
  listError,
}: {
  orgId: string;
  idPrefix: string;
  value: Binding[];
  onChange: (next: Binding[]) => void;
  rowErrors?: Record<number, string>;
  listError?: string;
}) {
  const projects = useProjects(orgId);
  const scopes = [
    { value: ORGANIZATION, label: 'Whole organization' },
    ...projects.items.map((p) => ({ value: p.id, label: `Project ${p.name}` })),
  ];
  const focusAfterRemove = useRef<number | null>(null);
  const addButton = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    const at = focusAfterRemove.current;
    if (at === null) return;
    focusAfterRemove.current = null;
    const next = document.getElementById(`${idPrefix}-remove-${at}`);
    (next ?? addButton.current)?.focus();
  }, [value, idPrefix]);
  const change = (i: number, patch: Partial<Binding>) =>
    onChange(value.map((b, j) => (j === i ? { ...b, ...patch } : b)));

  return (
    <fieldset className="space-y-2" aria-describedby={`${idPrefix}-list-error`}>
      <legend className="text-sm font-medium text-slate-800">Roles</legend>
      <p className="text-xs text-slate-600">
        A policy in the whole organization or in one project. You can only give what you hold there yourself.
      </p>
      {value.length === 0 && <p className="text-sm text-slate-600">No roles: they can sign in but see nothing.</p>}
      <ul className="space-y-2">
        {value.map((binding, i) => (
          <li key={i} className="rounded-md p-2 ring-1 ring-slate-200">
            <div className="grid gap-2 sm:grid-cols-[1fr_1fr_auto] sm:items-end">
              <Select
                id={`${idPrefix}-policy-${i}`}
                label={`Policy of role ${i + 1}`}
                value={binding.policy}
                options={POLICY_OPTIONS}
                invalid={!!rowErrors[i]}
                describedBy={`${idPrefix}-grants-${i} ${idPrefix}-error-${i}`}
                onValueChange={(policy) => change(i, { policy })}
              />
              <Select
                id={`${idPrefix}-scope-${i}`}
                label={`Scope of role ${i + 1}`}
                value={binding.projectId ?? ORGANIZATION}
                options={scopes}
                invalid={!!rowErrors[i]}
                describedBy={`${idPrefix}-error-${i}`}
                onValueChange={(scope) => change(i, { projectId: scope === ORGANIZATION ? null : scope })}
              />
              <Button
                id={`${idPrefix}-remove-${i}`}
                variant="secondary"
                aria-label={`Remove role ${i + 1}`}
                onClick={() => {
                  focusAfterRemove.current = i;
                  onChange(value.filter((_, j) => j !== i));
                }}
              >
                Remove
              </Button>
            </div>
            <p id={`${idPrefix}-grants-${i}`} className="mt-1 text-xs text-slate-600">
              Grants: {describePolicy(binding.policy) ?? 'nothing this console knows of'}.
            </p>
            <FieldError id={`${idPrefix}-error-${i}`} message={rowErrors[i]} compact />
          </li>
        ))}
      </ul>
      <Button
        ref={addButton}
        variant="secondary"
        size="sm"
        onClick={() => onChange([...value, { policy: 'BasicAccess', projectId: null }])}
      >
        Add role
      </Button>
      <FieldError id={`${idPrefix}-list-error`} message={listError} />
    </fieldset>
  );
}
