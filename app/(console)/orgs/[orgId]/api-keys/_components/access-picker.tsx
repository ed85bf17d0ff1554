'use client';

import { Button } from '@/components/ui/button';
import { FieldError } from '@/components/ui/field';
import { PERMISSIONS } from '@/lib/permissions';
import type { EffectivePermissions } from '@/lib/access/schema';
import type { Project } from '@/lib/orgs/schema';

/** The policies' vocabulary by area (`obs.silences`, `apiKeys`), in the list's order: one fieldset per area. */
const AREAS: { area: string; permissions: string[] }[] = [];
for (const permission of PERMISSIONS) {
  const area = permission.slice(0, permission.lastIndexOf('.'));
  const group = AREAS.find((g) => g.area === area) ?? AREAS[AREAS.push({ area, permissions: [] }) - 1];
  group.permissions.push(permission);
}

const checkbox = 'size-4 rounded border-slate-300 text-indigo-600 focus:ring-indigo-600 disabled:opacity-50';
const input =
  'block w-full rounded-md border-0 px-2 py-1.5 font-mono text-sm text-slate-900 ring-1 ring-inset ring-slate-300 focus:ring-2 focus:ring-indigo-600';

export type Access = { permissions: string[]; projectIds: string[]; allowedIps: string[] };
export type AccessErrors = { permissions?: string; projectIds?: string; allowedIps?: string };

function Check(props: {
  id: string;
  label: string;
  checked: boolean;
  disabled?: boolean;
  onChange: (on: boolean) => void;
}) {
  return (
    <div className="flex items-center gap-2">
      <input
        id={props.id}
        type="checkbox"
        className={checkbox}
        checked={props.checked}
        disabled={props.disabled}
        onChange={(e) => props.onChange(e.currentTarget.checked)}
      />
      <label htmlFor={props.id} className="min-w-0 break-words font-mono text-xs text-slate-800">
        {props.label}
      </label>
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
  const holds = (permission: string) =>
    held?.organization.includes(permission as never) === true ||
    (value.projectIds.length > 0 &&
      value.projectIds.every((id) =>
        held?.projects.find((p) => p.projectId === id)?.permissions.includes(permission as never),
      ));
  const set = (patch: Partial<Access>) => onChange({ ...value, ...patch });

  return (
    <div className="space-y-3">
      <fieldset aria-describedby="access-permissions-hint access-permissions-error" className="space-y-2">
        <legend className="text-sm font-medium text-slate-800">Permissions</legend>
        <p id="access-permissions-hint" className="text-xs text-slate-600">
          None checked: every permission the owner holds. Those you do not hold here are disabled.
        </p>
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
                  disabled={!holds(permission) && !value.permissions.includes(permission)}
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
