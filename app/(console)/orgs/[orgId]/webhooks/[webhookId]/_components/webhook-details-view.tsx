'use client';

import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { runMutation } from '@/components/console/feedback';
import { RotateSecretButton } from '@/components/console/rotate-secret-button';
import { exactTime } from '@/lib/format/time';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { ErrorState, PageHeader, ReadOnlyNote } from '@/components/ui/states';
import { CopyId } from '@/components/console/copy-id';
import { hasGrant, usePermissions } from '@/lib/access/queries';
import {
  useDeleteWebhook,
  useRotateWebhookSecret,
  useSendTestEvent,
  useUpdateWebhook,
  useWebhook,
} from '@/lib/webhooks/queries';
import { EventChips, WebhookState } from '../../_components/webhooks-view';
import { WebhookFormDialog } from '../../_components/webhook-form-dialog';
import { DeliveryLog } from './delivery-log';

/** One endpoint: what it receives, its actions (edit, rotate the secret, test, delete) and its delivery log. */
export function WebhookDetailsView({ orgId, webhookId }: { orgId: string; webhookId: string }) {
  const router = useRouter();
  const permissions = usePermissions(orgId);
  const canManage = hasGrant(permissions.data, 'orgs.update');
  const webhook = useWebhook(orgId, webhookId);
  const update = useUpdateWebhook(orgId, webhookId);
  const rotate = useRotateWebhookSecret(orgId);
  const sendTest = useSendTestEvent(orgId, webhookId);
  const remove = useDeleteWebhook(orgId);
  const [editing, setEditing] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const [refusal, setRefusal] = useState<string | null>(null);

  const back = (
    <Link href={`/orgs/${orgId}/webhooks`} className="text-sm font-semibold text-indigo-700 hover:underline">
      ← Webhooks
    </Link>
  );
  if (canManage === false)
    return (
      <>
        {back}
        <ReadOnlyNote>Only organization admins (with orgs.update) see and manage webhooks.</ReadOnlyNote>
      </>
    );
  if (webhook.isError)
    return (
      <>
        {back}
        <ErrorState title="Could not load the webhook" message={webhook.error.message} />
      </>
    );
  const hook = webhook.data;

  return (
    <>
      {back}
      <div className="mt-2">
        <PageHeader
          title="Webhook"
          description={hook ? <span className="break-all font-mono">{hook.url}</span> : 'Loading…'}
          actions={
            hook && (
              <>
                <Button variant="secondary" onClick={() => setEditing(true)}>
                  Edit
                </Button>
                <Button
                  variant="secondary"
                  pending={sendTest.isPending}
                  onClick={() =>
                    void runMutation(() => sendTest.mutateAsync(), {
                      success: 'Test event queued; it appears in the delivery log within seconds.',
                      failure: 'Could not send a test event',
                    })
                  }
                >
                  Send test event
                </Button>
                <RotateSecretButton
                  rotate={async () => (await rotate(webhookId)).secret}
                  success="Rotated the signing secret. Copy the new one now."
                  onRefusal={setRefusal}
                />
                <Button variant="danger" onClick={() => setDeleting(true)}>
                  Delete
                </Button>
              </>
            )
          }
        />
      </div>
      {refusal && (
        <p role="alert" className="mb-4 rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-900">
          {refusal}
        </p>
      )}
      {hook && (
        <dl className="grid gap-4 rounded-lg bg-white p-4 text-sm shadow-sm ring-1 ring-slate-200 sm:grid-cols-2">
          <div>
            <dt className="font-medium text-slate-600">State</dt>
            <dd className="mt-1">
              <WebhookState webhook={hook} />
              {hook.disabledReason && <p className="mt-1 text-slate-700">Disabled: {hook.disabledReason}</p>}
            </dd>
          </div>
          <div>
            <dt className="font-medium text-slate-600">Created</dt>
            <dd className="mt-1 text-slate-800">{exactTime(hook.createdAt)}</dd>
          </div>
          <div>
            <dt className="font-medium text-slate-600">Description</dt>
            <dd className="mt-1 text-slate-800">{hook.description || '—'}</dd>
          </div>
          <div className="sm:col-span-2">
            <dt className="sr-only">ID</dt>
            <dd>
              <CopyId id={hook.id} what="the webhook" />
            </dd>
          </div>
          <div>
            <dt className="font-medium text-slate-600">Events</dt>
            <dd className="mt-1">
              <EventChips events={hook.events} />
            </dd>
          </div>
        </dl>
      )}
      <DeliveryLog orgId={orgId} webhookId={webhookId} />
      {hook && (
        <WebhookFormDialog
          open={editing}
          onOpenChange={setEditing}
          webhook={hook}
          save={async (values) => {
            await update.mutateAsync(values);
            return { message: 'Saved the webhook.' };
          }}
        />
      )}
      <ConfirmDialog
        open={deleting}
        onOpenChange={setDeleting}
        title="Delete this webhook?"
        description={<p>Nothing more is sent to {hook?.url}. Its queued deliveries and its log are deleted too.</p>}
        confirmLabel="Delete webhook"
        removesOpener
        onConfirm={async () => {
          const outcome = await runMutation(() => remove.mutateAsync(webhookId), {
            success: `Deleted the webhook for ${hook?.url ?? 'the endpoint'}.`,
            failure: 'Could not delete the webhook',
          });
          if (outcome.ok) router.push(`/orgs/${orgId}/webhooks`);
          return outcome.ok;
        }}
      />
    </>
  );
}
