import type { ApiKey } from '@/lib/api-keys/schema';

/** The doors every key keeps, however narrowed (PRODUCT.md, "Restricted keys and the owner's own doors"). */
const KEPT_DOORS = [
  ['GET /v1/api-key', 'which key it is and what it may do now'],
  ['GET /v1/organizations', 'its own organization'],
  ['GET …/permissions', 'its permissions: its owner’s, narrowed by the key'],
  ['DELETE …/api-keys/{its id}', 'revoke itself'],
] as const;

/** Whether a key reaches only what it names: narrowed by permissions or projects (addresses alone do not). */
export const isNarrowed = (key: Pick<ApiKey, 'permissions' | 'projectIds'>) =>
  key.permissions !== null || key.projectIds !== null;

/** What a restricted key can never do, said in the create dialog's Access section. */
export function NarrowedKeyLimits() {
  return (
    <p id="restricted-key-limits" className="text-xs text-slate-600">
      Restricted by permissions or projects, a key reaches only what it names and never acts on your own account: it
      cannot make you leave the organization, nor list, read or revoke your other keys, nor see your keys&apos; leak
      notices. It can always say which key it is, list its organization, read what it may do, and revoke itself.
      Restricted by IP ranges alone, it acts fully as you from those addresses.
    </p>
  );
}

/** The four doors a narrowed key keeps, listed on its access dialog. */
export function KeptDoors() {
  return (
    <section aria-labelledby="kept-doors" className="mb-3">
      <h3 id="kept-doors" className="text-xs font-semibold text-slate-600">
        Always open to this key
      </h3>
      <ul className="mt-1 space-y-0.5 text-xs text-slate-800">
        {KEPT_DOORS.map(([door, what]) => (
          <li key={door}>
            <code className="break-all font-mono">{door}</code>: {what}
          </li>
        ))}
      </ul>
      <p className="mt-1 text-xs text-slate-600">Nothing else of its owner&apos;s own account: those answer 403.</p>
    </section>
  );
}
