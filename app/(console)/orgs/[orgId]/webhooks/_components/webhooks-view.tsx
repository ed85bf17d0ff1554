'use client';

import Link from 'next/link';
import { useRef, useState } from 'react';
import { ListStates } from '@/components/console/list-states';
import { LoadMore } from '@/components/console/load-more';
import { SecretRevealDialog } from '@/components/console/secret-reveal-dialog';
import { shortDate } from '@/lib/format/time';
import { Button } from '@/components/ui/button';
import { DataTable } from '@/components/ui/data-table';
import { Badge, EmptyState, PageHeader, ReadOnlyNote } from '@/components/ui/states';
import { hasGrant, usePermissions } from '@/lib/access/queries';
import { useCreateWebhook, useWebhooks } from '@/lib/webhooks/queries';
import type { Webhook } from '@/lib/webhooks/schema';
import { WebhookFormDialog } from './webhook-form-dialog';
import { consolePlace, openPlace } from '@/components/console/console-place';

export function EventChips({ events }: { events: string[] }) {
  return (
    <ul className="flex flex-wrap gap-1" aria-label="Events">
      {events.map((e) => (
        <li key={e} className="rounded bg-slate-100 px-1.5 py-0.5 font-mono text-xs text-slate-700">
          {e}
        </li>
      ))}
    </ul>
  );
}

export function WebhookState({ webhook }: { webhook: Webhook }) {
  if (webhook.enabled) return <Badge tone="green">Enabled</Badge>;
  return (
    <span title={webhook.disabledReason ?? undefined}>
      <Badge tone={webhook.disabledReason ? 'red' : 'slate'}>Disabled</Badge>
    </span>
  );
}

export function WebhooksView({ orgId }: { orgId: string }) {
  const permissions = usePermissions(orgId);
  const canManage = hasGrant(permissions.data, 'orgs.update');
  const webhooks = useWebhooks(orgId, canManage === true);
  const create = useCreateWebhook(orgId);
  const [adding, setAdding] = useState(false);
  // The one place the signing secret exists in the console: this state, dropped when the reveal closes.
  const [secret, setSecret] = useState<string | null>(null);
  const addButton = useRef<HTMLButtonElement>(null);

  const header = (
    <PageHeader
      title="Webhooks"
      description="Audit events of this organization, POSTed to your endpoints as they happen and signed per Standard Webhooks."
      actions={
        canManage && (
          <Button ref={addButton} onClick={() => setAdding(true)}>
            Add webhook
          </Button>
        )
      }
    />
  );
  if (!permissions.isPending && !canManage)
    return (
      <>
        {header}
        <ReadOnlyNote>Only organization admins (with orgs.update) see and manage webhooks.</ReadOnlyNote>
      </>
    );

  return (
    <>
      {header}
      <ListStates
        list={webhooks}
        loading="Loading webhooks"
        columns={4}
        pending={permissions.isPending || webhooks.isPending}
        errorTitle="Could not load webhooks"
        empty={
          <EmptyState title="No webhooks" action={<Button onClick={() => setAdding(true)}>Add webhook</Button>}>
            Send this organization&apos;s events to your chat, SIEM or automation.
          </EmptyState>
        }
      >
        <DataTable
          caption="Webhooks"
          columns={['Endpoint', 'Events', 'State', 'Created']}
          minWidth="40rem"
          stacked
          footer={<LoadMore list={webhooks} />}
        >
          {webhooks.items.map((hook) => (
            <tr key={hook.id}>
              <th scope="row" className="px-4 py-3 text-left font-medium">
                <Link href={`/orgs/${orgId}/webhooks/${hook.id}`} className="text-indigo-700 hover:underline">
                  {hook.url}
                </Link>
                {hook.description && <p className="mt-0.5 font-normal text-slate-600">{hook.description}</p>}
              </th>
              <td data-label="Events" className="px-4 py-3">
                <EventChips events={hook.events} />
              </td>
              <td data-label="State" className="px-4 py-3">
                <WebhookState webhook={hook} />
              </td>
              <td data-label="Created" className="whitespace-nowrap px-4 py-3 text-slate-700">
                {shortDate(hook.createdAt)}
              </td>
            </tr>
          ))}
        </DataTable>
      </ListStates>
      <WebhookFormDialog
        open={adding}
        onOpenChange={setAdding}
        save={async (values) => {
          const created = await create({
            url: values.url ?? '',
            events: values.events ?? [],
            ...(values.description ? { description: values.description } : {}),
          });
          setSecret(created.secret);
          return {
            message: `Added the webhook for ${created.webhook.url}. Copy its signing secret now.`,
            link: openPlace(consolePlace(orgId, { type: 'webhook', id: created.webhook.id })),
          };
        }}
      />
      <SecretRevealDialog
        title="The webhook's signing secret"
        label="Signing secret"
        secret={secret}
        onClose={() => setSecret(null)}
        returnFocus={() => addButton.current}
      />
    </>
  );
}
