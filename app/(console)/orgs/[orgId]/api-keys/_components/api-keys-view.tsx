'use client';

import { usePathname, useRouter, useSearchParams } from 'next/navigation';
import { useRef, useState } from 'react';
import { SecretRevealDialog } from '@/components/console/secret-reveal-dialog';
import { LocalDate, TimeAgo } from '@/components/console/time';
import { useConsoleUser } from '@/components/console/user-context';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { runMutation } from '@/components/console/feedback';
import { ListStates } from '@/components/console/list-states';
import { LoadMore } from '@/components/console/load-more';
import { SearchBox, useSearchText } from '@/components/console/search-box';
import { Select } from '@/components/ui/select';
import { FirstCall } from './first-call';
import { KeyBadges } from './key-badges';
import { keyStartOf, withoutKeyStart } from './key-start';
import { LeakNotices } from './leak-notices';
import { useLeakNotices } from '@/lib/api-keys/rotation-queries';
import { Badge, EmptyState, PageHeader } from '@/components/ui/states';
import { hasGrant, usePermissions } from '@/lib/access/queries';
import { useApiKeys, useRevokeApiKey } from '@/lib/api-keys/queries';
import type { ApiKey } from '@/lib/api-keys/schema';
import type { CodeAct } from '@/lib/console/code-samples';
import { useBots } from '@/lib/bots/queries';
import { useProjects } from '@/lib/orgs/queries';
import { ActionsCell, DataTable, RowAction } from '@/components/ui/data-table';
import { whenOpened } from '@/components/ui/opened-once';

// The dialogs (their forms, zod, the usage chart's recharts) load when each first opens, not with the key list; the
// create dialog once a person is on the page.
const CreateApiKeyDialog = whenOpened(
  () => import('./create-api-key-dialog'),
  (m) => m.CreateApiKeyDialog,
  (props) => props.open,
  // Its Name field takes focus when it opens: loaded early, what is typed right after pressing Create is kept.
  { early: true },
);
const RollApiKeyDialog = whenOpened(
  () => import('./roll-api-key-dialog'),
  (m) => m.RollApiKeyDialog,
  (props) => props.apiKey !== null,
);
const KeyUsageDialog = whenOpened(
  () => import('./key-usage-dialog'),
  (m) => m.KeyUsageDialog,
  (props) => props.apiKey !== null,
);

const KeyAccessDialog = whenOpened(
  () => import('./key-access-dialog'),
  (m) => m.KeyAccessDialog,
  (props) => props.apiKey !== null,
);

function Expiry({ apiKey }: { apiKey: ApiKey }) {
  if (apiKey.expired) return <Badge tone="red">Expired</Badge>;
  if (!apiKey.expiresAt) return <span className="text-slate-500">Never</span>;
  return <LocalDate iso={apiKey.expiresAt} exact />;
}

export function ApiKeysView({
  orgId,
  myAddress,
  firstCall,
}: {
  orgId: string;
  myAddress?: string | null;
  /** The call every key may make, for the reveal's "Use from code". */
  firstCall: CodeAct;
}) {
  const me = useConsoleUser();
  const permissions = usePermissions(orgId);
  const isAdmin = hasGrant(permissions.data, 'apiKeys.list') === true;
  const canRevokeOthers = hasGrant(permissions.data, 'apiKeys.delete') === true;
  const canCreateForBots = hasGrant(permissions.data, 'bots.createApiKey') === true;
  const [ownerFilter, setOwnerFilter] = useState<'all' | 'me'>('all');
  const [expiringSoon, setExpiringSoon] = useState(false);
  const q = useSearchText();
  const keys = useApiKeys(orgId, isAdmin ? ownerFilter : 'me', expiringSoon, q);
  const leaks = useLeakNotices(orgId);
  const loading = keys.isPending || permissions.isPending || leaks.isPending;
  const [toRoll, setToRoll] = useState<ApiKey | null>(null);
  const [usageOf, setUsageOf] = useState<ApiKey | null>(null);
  const [accessOf, setAccessOf] = useState<ApiKey | null>(null);
  const projects = useProjects(orgId);
  const bots = useBots(orgId);
  const revoke = useRevokeApiKey(orgId);
  // A "Use from code" panel links here with the key it describes: the create dialog opens on it at once.
  const params = useSearchParams();
  const router = useRouter();
  const pathname = usePathname();
  const [start] = useState(() => keyStartOf(params));
  const [creating, setCreating] = useState(start !== null);
  const openCreate = (open: boolean) => {
    setCreating(open);
    if (!open && params.has('new')) router.replace(`${pathname}${withoutKeyStart(params)}`, { scroll: false });
  };
  // The one place the secret exists in the console: this state, dropped when the reveal dialog closes.
  const [secret, setSecret] = useState<string | null>(null);
  const [toRevoke, setToRevoke] = useState<ApiKey | null>(null);
  // The reveal dialog opens from the create dialog; closing it returns here.
  const createButton = useRef<HTMLButtonElement>(null);
  // The row button that opened Usage or Roll: focus returns there, or to Create when that row's button is gone.
  const rowOpener = useRef<HTMLElement | null>(null);
  const backToRow = () => (rowOpener.current?.isConnected ? rowOpener.current : createButton.current);

  const items = keys.items;
  const ownerLabel = (key: ApiKey) => (key.owner.type === 'user' && key.owner.id === me.id ? 'You' : key.owner.name);

  return (
    <>
      <PageHeader
        title="API keys"
        description="Credentials for code. A key acts as its owner, with the owner's access or, restricted, less of it."
        actions={
          <Button ref={createButton} onClick={() => ((rowOpener.current = null), setCreating(true))}>
            Create API key
          </Button>
        }
      />
      <div className="mb-4">
        <SearchBox label="Search keys" placeholder="Part of a name, or a prefix (svc_AbC1)" />
      </div>
      {/* Side by side from 400 px, so the Owner filter (admins only, known once permissions load) appears beside
          Expiry instead of pushing the list down (Lighthouse's layout shift). */}
      <div className="mb-4 flex flex-wrap gap-4">
        <div className="w-40 sm:w-56">
          <Select
            label="Expiry"
            value={expiringSoon ? 'soon' : 'any'}
            options={[
              { value: 'any', label: 'Any' },
              { value: 'soon', label: 'Expiring soon' },
            ]}
            onValueChange={(v) => setExpiringSoon(v === 'soon')}
          />
        </div>
        {isAdmin && (
          <div className="w-40 sm:w-56">
            <Select
              label="Owner"
              value={ownerFilter}
              options={[
                { value: 'all', label: 'Everyone' },
                { value: 'me', label: 'Only mine' },
              ]}
              onValueChange={(v) => setOwnerFilter(v === 'me' ? 'me' : 'all')}
            />
          </div>
        )}
      </div>
      {/* The leak notices come with the list, in the same render: arriving on their own above the filters, they
          pushed the page down (0.115 of layout shift when an organization had leaked keys). */}
      {!loading && <LeakNotices orgId={orgId} />}
      <ListStates
        list={keys}
        loading="Loading API keys"
        columns={7}
        pending={loading}
        errorTitle="Could not load API keys"
        empty={
          <EmptyState title="No API keys" action={<Button onClick={() => setCreating(true)}>Create API key</Button>}>
            {q
              ? `No key's name contains “${q}” and no prefix starts with it.`
              : expiringSoon
                ? 'No key expires within 7 days.'
                : isAdmin && ownerFilter === 'all'
                  ? 'Nobody in this organization has a key yet.'
                  : 'You have no keys in this organization yet.'}
          </EmptyState>
        }
      >
        <DataTable
          caption="API keys"
          columns={['Name', 'Key', 'Owner', 'Created', 'Expires', 'Last used', null]}
          minWidth="52rem"
          stacked
          footer={<LoadMore list={keys} />}
        >
          {items.map((key) => {
            const own = key.owner.type === 'user' && key.owner.id === me.id;
            return (
              <tr key={key.id}>
                <th scope="row" className="px-4 py-3 text-left font-medium text-slate-900">
                  <div className="max-w-xs">
                    {key.name} <KeyBadges apiKey={key} />
                  </div>
                </th>
                <td data-label="Key" className="whitespace-nowrap px-4 py-3 font-mono text-slate-700">
                  {key.prefix}…
                </td>
                <td data-label="Owner" className="px-4 py-3 text-slate-700">
                  <div className="max-w-[14rem]">
                    {ownerLabel(key)} {key.owner.type === 'bot' && <Badge tone="indigo">bot</Badge>}
                  </div>
                </td>
                <td data-label="Created" className="whitespace-nowrap px-4 py-3 text-slate-700">
                  <LocalDate iso={key.createdAt} exact />
                </td>
                <td data-label="Expires" className="whitespace-nowrap px-4 py-3 text-slate-700">
                  <Expiry apiKey={key} />
                </td>
                <td data-label="Last used" className="whitespace-nowrap px-4 py-3 text-slate-700">
                  <TimeAgo iso={key.lastUsedAt} />
                </td>
                <ActionsCell>
                  <RowAction
                    label="Access"
                    name={`Access of ${key.name}`}
                    onClick={(e) => ((rowOpener.current = e.currentTarget), setAccessOf(key))}
                  />
                  <RowAction
                    label="Usage"
                    name={`Usage of ${key.name}`}
                    onClick={(e) => ((rowOpener.current = e.currentTarget), setUsageOf(key))}
                  />
                  {!key.expired && !key.rolledAt && (key.owner.type === 'bot' ? canCreateForBots : own) && (
                    <RowAction
                      label="Roll"
                      name={`Roll ${key.name}`}
                      onClick={(e) => ((rowOpener.current = e.currentTarget), setToRoll(key))}
                    />
                  )}
                  {(own || canRevokeOthers) && (
                    <RowAction label="Revoke" name={`Revoke ${key.name}`} onClick={() => setToRevoke(key)} />
                  )}
                </ActionsCell>
              </tr>
            );
          })}
        </DataTable>
      </ListStates>

      <CreateApiKeyDialog
        orgId={orgId}
        open={creating}
        onOpenChange={openCreate}
        start={start}
        bots={canCreateForBots ? bots.items : []}
        myAddress={myAddress ?? null}
        onCreated={(created) => {
          openCreate(false);
          setSecret(created.secret);
        }}
      />
      <RollApiKeyDialog
        returnFocus={backToRow}
        orgId={orgId}
        apiKey={toRoll}
        onOpenChange={(open) => !open && setToRoll(null)}
        onRolled={(rolled) => {
          setToRoll(null);
          setSecret(rolled.secret);
        }}
      />
      <KeyUsageDialog
        orgId={orgId}
        apiKey={usageOf}
        onOpenChange={(open) => !open && setUsageOf(null)}
        returnFocus={backToRow}
      />
      <KeyAccessDialog
        orgId={orgId}
        apiKey={accessOf}
        projects={projects.items}
        onOpenChange={(open) => !open && setAccessOf(null)}
        returnFocus={backToRow}
      />
      <SecretRevealDialog
        title="Your new API key"
        label="API key"
        secret={secret}
        onClose={() => setSecret(null)}
        returnFocus={backToRow}
      >
        {secret && <FirstCall secret={secret} act={firstCall} />}
      </SecretRevealDialog>
      <ConfirmDialog
        open={toRevoke !== null}
        onOpenChange={(open) => !open && setToRevoke(null)}
        title={`Revoke “${toRevoke?.name ?? ''}”?`}
        description={
          <p>
            The key <span className="font-mono">{toRevoke?.prefix}…</span> stops working immediately, for every program
            using it. This cannot be undone.
          </p>
        }
        confirmLabel="Revoke key"
        removesOpener
        onConfirm={async () => {
          if (!toRevoke) return false;
          const { name, id } = toRevoke;
          const outcome = await runMutation(() => revoke.mutateAsync(id), {
            success: `Revoked “${name}”.`,
            failure: `Could not revoke “${name}”`,
          });
          return outcome.ok;
        }}
      />
    </>
  );
}
