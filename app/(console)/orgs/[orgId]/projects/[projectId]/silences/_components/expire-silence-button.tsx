'use client';

import { useState } from 'react';
import { toast } from 'sonner';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { ApiRequestError } from '@/lib/api-client';
import type { Silence } from '@/lib/silences/schema';
import { useExpireSilence } from '@/lib/silences/queries';

/** "Expire now" with a confirmation; sends the ETag the form loaded, so a silence changed meanwhile is not ended. */
export function ExpireSilenceButton({
  orgId,
  projectId,
  silence,
  etag,
  onExpired,
  onStale,
}: {
  orgId: string;
  projectId: string;
  silence: Silence;
  etag: string;
  onExpired: (silence: Silence) => void;
  onStale: () => void;
}) {
  const [confirming, setConfirming] = useState(false);
  const expire = useExpireSilence(orgId, projectId, silence.id);

  // The caller announces the expiry; a stale version closes this and shows the editor's reload panel.
  const confirm = async (): Promise<boolean> => {
    try {
      onExpired((await expire.mutateAsync({ etag })).silence);
      return true;
    } catch (err) {
      if (err instanceof ApiRequestError && err.status === 412) return (onStale(), true);
      toast.error(`Not expired: ${err instanceof Error ? err.message : 'something went wrong; try again.'}`);
      return false;
    }
  };

  return (
    <>
      <Button
        variant="danger"
        onClick={() => {
          expire.reset();
          setConfirming(true);
        }}
      >
        Expire now
      </Button>
      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        title="Expire this silence now?"
        description={
          <p>
            {silence.state === 'scheduled'
              ? 'It will never start: its start and end become now.'
              : 'Its alerts notify again from now on.'}{' '}
            The silence stays listed under Expired, where you can recreate it.
          </p>
        }
        confirmLabel="Expire silence"
        onConfirm={confirm}
      />
    </>
  );
}
