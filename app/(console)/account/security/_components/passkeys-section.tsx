'use client';

import { useRef, useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import { announceFailure, runMutation } from '@/components/console/feedback';
import { exactTime, shortDate } from '@/lib/format/time';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { ActionsCell, DataTable } from '@/components/ui/data-table';
import { Dialog, FormFooter } from '@/components/ui/dialog';
import { TextField } from '@/components/ui/field';
import { EmptyState } from '@/components/ui/states';
import { ApiRequestError } from '@/lib/api-client';
import { passkeyFailure, useSecurityActions } from '@/lib/second-factor/queries';
import type { Security } from '@/lib/second-factor/schema';
import { RecoveryCodesDialog } from './recovery-codes-dialog';

type Passkey = Security['passkeys'][number];

function When({ iso }: { iso: string | null }) {
  if (!iso) return <span className="text-slate-500">Never</span>;
  return (
    <time dateTime={iso} title={exactTime(iso)}>
      {shortDate(iso)}
    </time>
  );
}

/** Passkeys: add one (named), see when each was used, remove it. */
export function PasskeysSection({ security }: { security: Security }) {
  const actions = useSecurityActions();
  const [adding, setAdding] = useState(false);
  const [codes, setCodes] = useState<string[] | null>(null);
  const [toRemove, setToRemove] = useState<Passkey | null>(null);
  const addButton = useRef<HTMLButtonElement>(null);
  const heading = useRef<HTMLHeadingElement>(null);

  return (
    <section aria-labelledby="passkeys-heading" className="rounded-lg bg-white p-5 shadow-sm ring-1 ring-slate-200">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div>
          <h2 id="passkeys-heading" ref={heading} tabIndex={-1} className="text-base font-semibold focus:outline-none">
            Passkeys
          </h2>
          <p className="mt-1 max-w-xl text-sm text-slate-600">
            Sign in with your fingerprint, face or device PIN instead of a password, or use one as the second step.
          </p>
        </div>
        <Button ref={addButton} onClick={() => setAdding(true)}>
          Add a passkey
        </Button>
      </div>
      <div className="mt-4">
        {security.passkeys.length === 0 ? (
          <EmptyState title="No passkeys yet" />
        ) : (
          <DataTable caption="Passkeys" columns={['Name', 'Added', 'Last used', null]} minWidth="28rem">
            {security.passkeys.map((passkey) => (
              <tr key={passkey.id}>
                <th scope="row" className="px-4 py-3 text-left font-medium text-slate-900">
                  {passkey.name}
                </th>
                <td className="px-4 py-3 text-slate-700">
                  <When iso={passkey.createdAt} />
                </td>
                <td className="px-4 py-3 text-slate-700">
                  <When iso={passkey.lastUsedAt} />
                </td>
                <ActionsCell>
                  <Button variant="secondary" size="sm" onClick={() => setToRemove(passkey)}>
                    Remove<span className="sr-only"> {passkey.name}</span>
                  </Button>
                </ActionsCell>
              </tr>
            ))}
          </DataTable>
        )}
      </div>

      <AddPasskeyDialog
        open={adding}
        onOpenChange={setAdding}
        add={actions.addPasskey}
        onAdded={(recoveryCodes) => {
          setAdding(false);
          if (recoveryCodes.length > 0) setCodes(recoveryCodes);
        }}
      />
      <RecoveryCodesDialog codes={codes} onClose={() => setCodes(null)} returnFocus={() => addButton.current} />
      <ConfirmDialog
        open={toRemove !== null}
        onOpenChange={(open) => !open && setToRemove(null)}
        title={`Remove the passkey “${toRemove?.name ?? ''}”?`}
        description={<p>It will no longer sign you in. Remove it from the device too if you no longer use it.</p>}
        confirmLabel="Remove"
        removesOpener
        returnFocus={() => heading.current}
        onConfirm={async () =>
          toRemove
            ? (
                await runMutation(() => actions.removePasskey(toRemove.id), {
                  success: `Removed the passkey “${toRemove.name}”.`,
                  failure: 'Could not remove the passkey',
                })
              ).ok
            : true
        }
      />
    </section>
  );
}

function AddPasskeyDialog({
  open,
  onOpenChange,
  add,
  onAdded,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  add: (name: string) => Promise<{ passkey: Passkey; recoveryCodes: string[] }>;
  onAdded: (recoveryCodes: string[]) => void;
}) {
  const [name, setName] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const trimmed = name.trim();
    if (!trimmed) {
      setError('Name the passkey, e.g. “Work laptop”.');
      return;
    }
    setPending(true);
    setError(null);
    try {
      const added = await add(trimmed);
      toast.success(`Added the passkey “${added.passkey.name}”.`);
      setName('');
      onAdded(added.recoveryCodes);
    } catch (err) {
      const issue = err instanceof ApiRequestError ? err.issues.find((i) => i.path === 'name') : undefined;
      if (issue) setError(issue.message);
      else if (err instanceof ApiRequestError) announceFailure('Could not add the passkey', err);
      else setError(passkeyFailure(err));
    } finally {
      setPending(false);
    }
  };

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        if (!next) {
          setName('');
          setError(null);
        }
        onOpenChange(next);
      }}
      title="Add a passkey"
      description="Name it after the device or password manager that keeps it; your browser then asks to create it."
    >
      <form onSubmit={(e) => void submit(e)} noValidate className="space-y-2">
        <TextField
          id="passkey-name"
          label="Name"
          error={error}
          autoFocus
          autoComplete="off"
          maxLength={100}
          value={name}
          onChange={(e) => setName(e.target.value)}
        />
        <FormFooter onCancel={() => onOpenChange(false)} pending={pending} submitLabel="Create passkey" />
      </form>
    </Dialog>
  );
}
