'use client';

import dynamic from 'next/dynamic';
import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { runMutation } from '@/components/console/feedback';
import { RotateSecretButton } from '@/components/console/rotate-secret-button';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import {
  useDeleteSubscription,
  useRotateSubscriptionSecret,
  useSetSubscriptionState,
} from '@/lib/subscriptions/queries';
import type { Subscription } from '@/lib/subscriptions/schema';

// The editor and its form load when it is first opened, not with the page.
const SubscriptionDialog = dynamic(() =>
  import('../../_components/subscription-dialog').then((m) => m.SubscriptionDialog),
);

/**
 * The page's actions and their dialogs: Edit (or View) settings, Pause or Resume, Rotate secret (sudo; the new
 * secret shown once) and Delete, each asked first where it changes deliveries, each announced.
 */
export function SubscriptionActions({
  orgId,
  projectId,
  sub,
  canEdit,
  canDelete,
  queueHref,
  onRefusal,
}: {
  orgId: string;
  projectId: string;
  sub: Subscription;
  canEdit: boolean;
  canDelete: boolean;
  /** Where Delete goes once done: the queue's page. */
  queueHref: string;
  /** Says on the page why a change did not happen (the sudo dialog cancelled), or clears it (null). */
  onRefusal: (message: string | null) => void;
}) {
  const router = useRouter();
  const setState = useSetSubscriptionState(orgId, projectId);
  const rotate = useRotateSubscriptionSecret(orgId, projectId);
  const remove = useDeleteSubscription(orgId, projectId);
  const [editing, setEditing] = useState(false);
  const [toggling, setToggling] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const pausing = sub.state === 'active';

  return (
    <>
      <Button variant="secondary" onClick={() => setEditing(true)}>
        {canEdit ? 'Edit settings' : 'View settings'}
      </Button>
      {canEdit && (sub.state === 'active' || sub.state === 'paused') && (
        <Button variant="secondary" onClick={() => setToggling(true)}>
          {pausing ? 'Pause' : 'Resume'}
        </Button>
      )}
      {canEdit && (
        <RotateSecretButton
          rotate={async () => (await rotate(sub.id)).signingSecret}
          success={`Rotated the signing secret of ${sub.slug}. Copy the new one now.`}
          revealDescription="Your receiver checks each delivery's signature with it. Copy it now: it will never be shown again."
          onRefusal={onRefusal}
        />
      )}
      {canDelete && (
        <Button variant="danger" onClick={() => setDeleting(true)}>
          Delete
        </Button>
      )}

      {editing && (
        <SubscriptionDialog
          orgId={orgId}
          projectId={projectId}
          subscription={sub}
          canEdit={canEdit}
          onClose={() => setEditing(false)}
        />
      )}
      <ConfirmDialog
        open={toggling}
        onOpenChange={setToggling}
        title={`${pausing ? 'Pause' : 'Resume'} ${sub.slug}?`}
        description={
          pausing ? (
            <p>Deliveries stop until you resume it; messages wait in its backlog meanwhile.</p>
          ) : (
            <p>Deliveries start again, beginning with the messages that waited in its backlog.</p>
          )
        }
        confirmLabel={pausing ? 'Pause subscription' : 'Resume subscription'}
        tone={pausing ? 'danger' : 'primary'}
        onConfirm={async () => {
          const outcome = await runMutation(
            () => setState.mutateAsync({ id: sub.id, action: pausing ? 'pause' : 'resume' }),
            {
              success: (changed) => `${changed.state === 'paused' ? 'Paused' : 'Resumed'} ${changed.slug}.`,
              failure: pausing ? 'Not paused' : 'Not resumed',
            },
          );
          return outcome.ok;
        }}
      />
      <ConfirmDialog
        open={deleting}
        onOpenChange={setDeleting}
        title={`Delete ${sub.slug}?`}
        description={
          <p>
            Nothing more is delivered to its target. Its backlog, dead letters and delivery records are deleted with it.
            This cannot be undone.
          </p>
        }
        confirmLabel="Delete subscription"
        removesOpener
        onConfirm={async () => {
          const outcome = await runMutation(() => remove.mutateAsync(sub.id), {
            success: `Deleted the subscription ${sub.slug}.`,
            failure: `Could not delete ${sub.slug}`,
          });
          if (outcome.ok) router.push(queueHref);
          return outcome.ok;
        }}
      />
    </>
  );
}
