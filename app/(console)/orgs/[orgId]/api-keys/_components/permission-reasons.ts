import type { EffectivePermissions } from '@/lib/access/schema';
import type { Project } from '@/lib/orgs/schema';
import { listInWords } from '@/lib/policy-description';

type Named = Pick<Project, 'id' | 'name'>;

/** The projects in which the creator holds `permission` (all of them when held in the whole organization). */
function heldIn(permission: string, held: EffectivePermissions, projects: Named[]): Named[] {
  return projects.filter((p) =>
    held.projects.find((h) => h.projectId === p.id)?.permissions.includes(permission as never),
  );
}

/**
 * Why a restricted key cannot be given `permission` with the projects chosen, in a few words, or null when it
 * can: a key acts only where its creator holds what it names (else the server answers 400).
 */
export function unavailableBecause(
  permission: string,
  held: EffectivePermissions | undefined,
  chosen: string[],
  projects: Named[],
): string | null {
  if (!held) return 'loading what you hold';
  if (held.organization.includes(permission as never)) return null;
  const where = heldIn(permission, held, projects);
  if (where.length === 0) return 'you do not hold it';
  if (chosen.length === 0) return `yours only in ${listInWords(where.map((p) => p.name))}: choose a project below`;
  const missing = projects.filter((p) => chosen.includes(p.id) && !where.includes(p));
  return missing.length === 0 ? null : `not yours in ${listInWords(missing.map((p) => p.name))}`;
}

/**
 * The projects worth offering while none is chosen: each where the creator holds permissions they lack in the
 * whole organization, with those permissions ("choose Production to give obs.silences.update").
 */
export function projectsThatUnlock(
  permissions: readonly string[],
  held: EffectivePermissions | undefined,
  projects: Named[],
): { project: Named; permissions: string[] }[] {
  if (!held) return [];
  return projects
    .map((project) => ({
      project,
      permissions: permissions.filter(
        (p) => !held.organization.includes(p as never) && heldIn(p, held, [project]).length > 0,
      ),
    }))
    .filter((offer) => offer.permissions.length > 0);
}
