'use client';

import { useState } from 'react';
import { LocalDate } from '@/components/console/time';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { EmptyState, PageHeader } from '@/components/ui/states';
import { hasGrant, usePermissions } from '@/lib/access/queries';
import { useBots, useDeleteBot, useSetBotPolicies } from '@/lib/bots/queries';
import type { Bot } from '@/lib/bots/schema';
import { ActionsCell, DataTable, RowAction } from '@/components/ui/data-table';
import { runMutation } from '@/components/console/feedback';
import { ListStates } from '@/components/console/list-states';
import { LoadMore } from '@/components/console/load-more';
import { PolicyBindings } from '@/components/console/policy-bindings';
import { useChangeRoles } from '@/components/console/change-roles';
import { whenOpened } from '@/components/ui/opened-once';

// The dialog and its form (zod, react-hook-form) load at the first sign of a person on the page, not with the list.
const NewBotDialog = whenOpened(
  () => import('./new-bot-dialog'),
  (m) => m.NewBotDialog,
  (props) => props.open,
  { early: true },
);

export function BotsView({ orgId }: { orgId: string }) {
  const permissions = usePermissions(orgId);
  const canDelete = hasGrant(permissions.data, 'bots.delete') === true;
  // Making a bot and changing its roles both take bots.create.
  const canCreate = hasGrant(permissions.data, 'bots.create') === true;
  const bots = useBots(orgId);
  const deleteBot = useDeleteBot(orgId);
  const [toDelete, setToDelete] = useState<Bot | null>(null);
  const [creating, setCreating] = useState(false);
  const setPolicies = useSetBotPolicies(orgId);
  const roles = useChangeRoles({
    orgId,
    rows: bots.items,
    idOf: (bot) => bot.id,
    save: (bot, policies) => setPolicies.mutateAsync({ botId: bot.id, policies }),
  });

  return (
    <>
      <PageHeader
        title="Bots"
        description="Non-human principals that own API keys."
        actions={canCreate && <Button onClick={() => setCreating(true)}>New bot</Button>}
      />
      <ListStates
        list={bots}
        loading="Loading bots"
        columns={4}
        errorTitle="Could not load bots"
        empty={<EmptyState title="No bots">This organization has no bots.</EmptyState>}
      >
        <DataTable
          caption="Bots"
          columns={['Name', 'Policies', 'Created', null]}
          stacked
          footer={<LoadMore list={bots} />}
        >
          {bots.items.map((bot) => (
            <tr key={bot.id}>
              <th scope="row" className="px-4 py-3 text-left font-medium text-slate-900">
                {bot.name}
              </th>
              <td data-label="Policies" className="px-4 py-3 text-slate-700">
                <PolicyBindings orgId={orgId} bindings={bot.policies} />
              </td>
              <td data-label="Created" className="whitespace-nowrap px-4 py-3 text-slate-700">
                <LocalDate iso={bot.createdAt} />
              </td>
              <ActionsCell>
                {canCreate && roles.button(bot)}
                {canDelete && <RowAction label="Delete" name={`Delete ${bot.name}`} onClick={() => setToDelete(bot)} />}
              </ActionsCell>
            </tr>
          ))}
        </DataTable>
      </ListStates>
      <NewBotDialog orgId={orgId} open={creating} onOpenChange={setCreating} />
      {roles.dialog}
      <ConfirmDialog
        open={toDelete !== null}
        onOpenChange={(open) => !open && setToDelete(null)}
        title={`Delete ${toDelete?.name ?? ''}?`}
        description={
          <>
            <p>The bot and its policies are removed. This cannot be undone.</p>
            <p className="font-medium text-slate-800">Every API key it owns is revoked immediately.</p>
          </>
        }
        confirmLabel="Delete bot"
        removesOpener
        onConfirm={async () => {
          if (!toDelete) return false;
          const { id, name } = toDelete;
          const outcome = await runMutation(() => deleteBot.mutateAsync(id), {
            success: `Deleted ${name}; its API keys are revoked.`,
            failure: `Could not delete ${name}`,
          });
          return outcome.ok;
        }}
      />
    </>
  );
}
