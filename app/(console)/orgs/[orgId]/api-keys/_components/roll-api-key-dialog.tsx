'use client';

import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { Select } from '@/components/ui/select';
import { ApiRequestError } from '@/lib/api-client';
import { useRollApiKey } from '@/lib/api-keys/rotation-queries';
import { GRACE_CHOICES, type ApiKey, type RolledApiKey } from '@/lib/api-keys/schema';

/** Roll: choose how long the old key keeps working, then the new secret goes to the reveal dialog. */
export function RollApiKeyDialog({
  orgId,
  apiKey,
  onOpenChange,
  onRolled,
  returnFocus,
}: {
  /** Where focus goes when the dialog closes: the row's button that opened it. */
  returnFocus?: () => HTMLElement | null | undefined;
  orgId: string;
  apiKey: ApiKey | null;
  onOpenChange: (open: boolean) => void;
  onRolled: (rolled: RolledApiKey) => void;
}) {
  const roll = useRollApiKey(orgId);
  const [grace, setGrace] = useState<string>(String(GRACE_CHOICES[2].seconds));
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const submit = async () => {
    if (!apiKey) return;
    setPending(true);
    setError(null);
    try {
      onRolled(await roll(apiKey.id, { gracePeriodSeconds: Number(grace) }));
    } catch (err) {
      setError(err instanceof ApiRequestError ? err.message : 'Could not roll the key. Try again.');
    } finally {
      setPending(false);
    }
  };

  return (
    <Dialog
      returnFocus={returnFocus}
      open={apiKey !== null}
      onOpenChange={(open) => {
        if (!open) setError(null);
        onOpenChange(open);
      }}
      title={`Roll “${apiKey?.name ?? ''}”`}
      description="A new key replaces this one, with the same name, owner and lifetime. The new key is shown once."
    >
      <div className="space-y-4">
        <Select
          label="Old key keeps working for"
          value={grace}
          options={GRACE_CHOICES.map((c) => ({ value: String(c.seconds), label: c.label }))}
          onValueChange={setGrace}
        />
        <p className="text-sm text-slate-600">
          {grace === '0'
            ? `The key ${apiKey?.prefix ?? ''}… stops working immediately.`
            : `Programs using ${apiKey?.prefix ?? ''}… keep working until the grace period ends; move them to the new key before then.`}
        </p>
        {error && (
          <p role="alert" className="rounded-md bg-red-50 px-3 py-2 text-sm text-red-800">
            {error}
          </p>
        )}
        <div className="flex justify-end gap-3">
          <Button variant="secondary" onClick={() => onOpenChange(false)}>
            Cancel
          </Button>
          <Button pending={pending} onClick={() => void submit()}>
            Roll key
          </Button>
        </div>
      </div>
    </Dialog>
  );
}
