'use client';

import { useRef, useState } from 'react';
import { runMutation } from '@/components/console/feedback';
import { reauthenticationMessage } from '@/components/console/reauthentication';
import { SecretRevealDialog } from '@/components/console/secret-reveal-dialog';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';

/**
 * Rotate secret for anything that signs its deliveries (a webhook, a subscription): asks first, runs the rotation
 * (sudo), then shows the new secret once. The secret lives only in this state, dropped when the reveal closes.
 */
export function RotateSecretButton({
  rotate,
  success,
  revealDescription,
  onRefusal,
}: {
  /** Rotates and resolves to the new secret. */
  rotate: () => Promise<string>;
  /** The success toast. */
  success: string;
  revealDescription?: string;
  /** Says on the page why the rotation did not happen (the sudo dialog cancelled), or clears it (null). */
  onRefusal: (message: string | null) => void;
}) {
  const [confirming, setConfirming] = useState(false);
  const [secret, setSecret] = useState<string | null>(null);
  const button = useRef<HTMLButtonElement>(null);

  return (
    <>
      <Button ref={button} variant="secondary" onClick={() => (onRefusal(null), setConfirming(true))}>
        Rotate secret
      </Button>
      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        tone="primary"
        title="Rotate the signing secret?"
        description={
          <p>A new secret signs every delivery from now on. The current one keeps signing beside it for 24 hours.</p>
        }
        confirmLabel="Rotate secret"
        onConfirm={async () => {
          const outcome = await runMutation(rotate, {
            success,
            failure: 'Could not rotate the secret',
            placeIssues: (error) => {
              const reauth = reauthenticationMessage(error, 'rotate the signing secret');
              if (reauth) onRefusal(reauth);
              return !reauth;
            },
          });
          if (outcome.ok) setSecret(outcome.data);
          return true;
        }}
      />
      <SecretRevealDialog
        title="The new signing secret"
        label="Signing secret"
        description={revealDescription}
        secret={secret}
        onClose={() => setSecret(null)}
        returnFocus={() => button.current}
      />
    </>
  );
}
