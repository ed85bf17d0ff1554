'use client';

import { useEffect, useRef } from 'react';
import { Button } from '@/components/ui/button';
import { FieldError } from '@/components/ui/field';
import { PERMISSIONS } from '@/lib/permissions';
import type { EffectivePermissions } from '@/lib/access/schema';
import type { Project } from '@/lib/orgs/schema';
import { listInWords } from '@/lib/policy-description';
import { projectsThatUnlock, unavailableBecause } from './permission-reasons';
import { RoleStart } from './role-start';

/** The policies' vocabulary by area (`obs.silences`, `apiKeys`), in the list's order: one fieldset per area. */
const AREAS: { area: string; permissions: string[] }[] = [];
for (const permission of PERMISSIONS) {
  const area = permission.slice(0, permission.lastIndexOf('.'));
  const group = AREAS.find((g) => g.area === area) ?? AREAS[AREAS.push({ area, permissions: [] }) - 1];
  group.permissions.push(permission);
}

// A disabled box keeps the browser's own look (greyed, not faded further) and its label stays readable.
const checkbox = 'size-4 shrink-0 rounded accent-indigo-600 disabled:cursor-not-allowed';
const input =
  'block w-full rounded-md border-0 px-2 py-1.5 font-mono text-sm text-slate-900 ring-1 ring-inset ring-slate-300 focus:ring-2 focus:ring-indigo-600';

export type Access = { permissions: string[]; projectIds: string[]; allowedIps: string[] };
export type AccessErrors = { permissions?: string; projectIds?: string; allowedIps?: string };

/** A checkbox and its label; a disabled one says why beside it, and to screen readers as its description. */
function Check(props: {
  id: string;
  label: string;
  checked: boolean;
  /** Why it cannot be ticked; none: it can. */
  disabledBecause?: string | null;
  onChange: (on: boolean) => void;
}) {
  const why = props.disabledBecause;
  return (
    <div className="flex items-start gap-2">
      <input
        id={props.id}
        type="checkbox"
        className={`mt-0.5 ${checkbox}`}
        checked={props.checked}
        disabled={!!why}
        aria-describedby={why ? `${props.id}-why` : undefined}
        onChange={(e) => props.onChange(e.currentTarget.checked)}
      />
      <span className="min-w-0 text-xs">
        <label htmlFor={props.id} className={`break-words font-mono ${why ? 'text-slate-600' : 'text-slate-800'}`}>
          {props.label}
        </label>
        {why && (
          <span id={`${props.id}-why`} className="block text-slate-600">
            {why}
          </span>
        )}
      </span>
    </div>
  );
}

const toggle = (list: string[], item: string, on: boolean) => (on ? [...list, item] : list.filter((x) => x !== item));

/**
 * A restricted key's three axes. A permission the creator does not hold where the key would act (in the whole
 * organization, or in each chosen project) is shown disabled: the server would refuse it (400). Nothing chosen
 * on an axis leaves it unrestricted, as the hints say.
 */
export function AccessPicker({
  value,
  onChange,
  held,
  projects,
  myAddress,
  errors,
}: {
  value: Access;
  onChange: (next: Access) => void;
  held: EffectivePermissions | undefined;
  projects: Project[];
  myAddress: string | null;
  errors: AccessErrors;
}) {
  // A ticked permission stays enabled, so it can be unticked after its project is.
  const disabledBecause = (permission: string) =>
    value.permissions.includes(permission) ? null : unavailableBecause(permission, held, value.projectIds, projects);
  const set = (patch: Partial<Access>) => onChange({ ...value, ...patch });
  const offers = value.projectIds.length === 0 ? projectsThatUnlock(PERMISSIONS, held, projects) : [];
  // A chosen offer goes away with its button: focus moves to the first permission it made available.
  const focusNext = useRef<string | null>(null);
  useEffect(() => {
    if (focusNext.current) document.getElementById(focusNext.current)?.focus();
    focusNext.current = null;
  }, [value.projectIds]);

  return (
    <div className="space-y-3">
      <fieldset aria-describedby="access-permissions-hint access-permissions-error" className="space-y-2">
        <legend className="text-sm font-medium text-slate-800">Permissions</legend>
        <p id="access-permissions-hint" className="text-xs text-slate-600">
          None checked: every permission the owner holds. Those you do not hold here are disabled.
        </p>
        <RoleStart held={held} projects={projects} onStart={set} />
        {offers.length > 0 && (
          <ul aria-label="Projects that allow more" className="space-y-1 text-xs text-slate-700">
            {offers.map(({ project, permissions }) => (
              <li key={project.id} className="flex flex-wrap items-center gap-x-2 gap-y-1">
                <Button
                  variant="secondary"
                  size="sm"
                  onClick={() => {
                    focusNext.current = `access-${permissions[0]}`;
                    set({ projectIds: [project.id] });
                  }}
                  aria-describedby={`access-offer-${project.id}`}
                >
                  Choose {project.name}
                </Button>
                <span id={`access-offer-${project.id}`} className="min-w-0 break-words">
                  to give <span className="font-mono">{listInWords(permissions)}</span>
                </span>
              </li>
            ))}
          </ul>
        )}
        <div className="grid max-h-56 gap-3 overflow-y-auto rounded-md p-2 ring-1 ring-inset ring-slate-200 sm:grid-cols-2">
          {AREAS.map(({ area, permissions }) => (
            <fieldset key={area} className="space-y-1">
              <legend className="text-xs font-semibold text-slate-600">{area}</legend>
              {permissions.map((permission) => (
                <Check
                  key={permission}
                  id={`access-${permission}`}
                  label={permission}
                  checked={value.permissions.includes(permission)}
                  disabledBecause={disabledBecause(permission)}
                  onChange={(on) => set({ permissions: toggle(value.permissions, permission, on) })}
                />
              ))}
            </fieldset>
          ))}
        </div>
        <FieldError id="access-permissions-error" message={errors.permissions} />
      </fieldset>
      <fieldset aria-describedby="access-projects-hint access-projects-error" className="space-y-1">
        <legend className="text-sm font-medium text-slate-800">Projects</legend>
        <p id="access-projects-hint" className="text-xs text-slate-600">
          None checked: every project, present and future.
        </p>
        {projects.map((project) => (
          <Check
            key={project.id}
            id={`access-project-${project.id}`}
            label={project.name}
            checked={value.projectIds.includes(project.id)}
            onChange={(on) => set({ projectIds: toggle(value.projectIds, project.id, on) })}
          />
        ))}
        <FieldError id="access-projects-error" message={errors.projectIds} />
      </fieldset>
      <fieldset aria-describedby="access-ips-hint access-ips-error" className="space-y-2">
        <legend className="text-sm font-medium text-slate-800">IP ranges</legend>
        <p id="access-ips-hint" className="text-xs text-slate-600">
          Addresses or CIDR ranges (203.0.113.0/24, 2001:db8::/32). None: from anywhere.
        </p>
        {value.allowedIps.map((range, i) => (
          <div key={i} className="flex items-center gap-2">
            <label htmlFor={`access-ip-${i}`} className="sr-only">
              IP range {i + 1}
            </label>
            <input
              id={`access-ip-${i}`}
              className={input}
              value={range}
              autoComplete="off"
              spellCheck={false}
              onChange={(e) =>
                set({ allowedIps: value.allowedIps.map((r, j) => (j === i ? e.currentTarget.value : r)) })
              }
            />
            <Button
              variant="secondary"
              aria-label={`Remove IP range ${i + 1}`}
              onClick={() => set({ allowedIps: value.allowedIps.filter((_, j) => j !== i) })}
            >
              Remove
            </Button>
          </div>
        ))}
        <div className="flex flex-wrap gap-2">
          <Button variant="secondary" onClick={() => set({ allowedIps: [...value.allowedIps, ''] })}>
            Add range
          </Button>
          {myAddress && !value.allowedIps.includes(myAddress) && (
            <Button variant="secondary" onClick={() => set({ allowedIps: [...value.allowedIps, myAddress] })}>
              Add my address ({myAddress})
            </Button>
          )}
        </div>
        <FieldError id="access-ips-error" message={errors.allowedIps} />
      </fieldset>
    </div>
  );
}
