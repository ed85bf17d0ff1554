'use client';

import { Dialog } from '@/components/ui/dialog';
import { ErrorState } from '@/components/ui/states';
import { useApiKeyAccess } from '@/lib/api-keys/rotation-queries';
import type { ApiKey } from '@/lib/api-keys/schema';
import type { Project } from '@/lib/orgs/schema';
import { restrictionSummary } from './key-badges';
import { isNarrowed, KeptDoors } from './owner-doors';

/**
 * A key's restrictions and what it would use of its owner's permissions now: a permission the owner has lost since
 * is struck through (and said so to screen readers), since the key cannot use it either.
 */
export function KeyAccessDialog({
  orgId,
  apiKey,
  projects,
  onOpenChange,
  returnFocus,
}: {
  returnFocus?: () => HTMLElement | null | undefined;
  orgId: string;
  apiKey: ApiKey | null;
  projects: Project[];
  onOpenChange: (open: boolean) => void;
}) {
  const access = useApiKeyAccess(orgId, apiKey?.id ?? '', apiKey !== null);
  const projectName = (id: string | null) =>
    id === null ? 'Whole organization' : (projects.find((p) => p.id === id)?.name ?? id);
  const scopes = [...new Set((access.data?.permissions ?? []).map((p) => p.projectId))];
  return (
    <Dialog
      returnFocus={returnFocus}
      open={apiKey !== null}
      onOpenChange={onOpenChange}
      title={`Access of “${apiKey?.name ?? ''}”`}
      description="A key acts for its owner: what the owner may do now, narrowed by the key's restrictions."
    >
      {apiKey && <p className="mb-3 text-sm text-slate-700">{restrictionSummary(apiKey)}.</p>}
      {apiKey && isNarrowed(apiKey) && <KeptDoors />}
      {apiKey && apiKey.policyViolations.length > 0 && (
        <p className="mb-3 text-sm text-red-800">
          Refused: it breaks the organization&apos;s key policy ({apiKey.policyViolations.join(', ')}).
        </p>
      )}
      {access.isPending ? (
        <p className="text-sm text-slate-600">Loading access…</p>
      ) : access.isError ? (
        <ErrorState
          title="Could not load access"
          message={access.error.message}
          onRetry={() => void access.refetch()}
        />
      ) : scopes.length === 0 ? (
        <p className="text-sm text-slate-600">Its owner holds no permission this key could use.</p>
      ) : (
        <div className="max-h-80 space-y-3 overflow-y-auto">
          {scopes.map((scope) => (
            <section key={scope ?? 'org'} aria-label={projectName(scope)}>
              <h3 className="text-xs font-semibold text-slate-600">{projectName(scope)}</h3>
              <ul className="mt-1 space-y-0.5 font-mono text-xs text-slate-800">
                {access.data.permissions
                  .filter((p) => p.projectId === scope)
                  .map((p) => (
                    <li key={p.permission}>
                      {p.ownerHolds ? (
                        p.permission
                      ) : (
                        <>
                          <s className="text-slate-500">{p.permission}</s>
                          <span className="sr-only"> (its owner no longer holds it)</span>
                        </>
                      )}
                    </li>
                  ))}
              </ul>
            </section>
          ))}
        </div>
      )}
    </Dialog>
  );
}
