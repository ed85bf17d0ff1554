'use client';

import { useState } from 'react';
import { toast } from 'sonner';
import { runMutation } from '@/components/console/feedback';
import { ListStates } from '@/components/console/list-states';
import { LoadMore } from '@/components/console/load-more';
import { useZone } from '@/components/console/time';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { ActionsCell, DataTable, RowAction } from '@/components/ui/data-table';
import { EmptyState } from '@/components/ui/states';
import { dayAndSecond, exactTime } from '@/lib/format/time';
import type { DeadLetter } from '@/lib/subscriptions/activity-schema';
import { useDeadLetters, useDiscardDeadLetter, useRedriveDeadLetters } from '@/lib/subscriptions/queries';
import { count } from '../../../queues/_components/queue-words';
import { errorInWords } from '../../_components/error-words';
import type { SubscriptionAddress } from './subscription-address';

const cell = 'px-4 py-3 align-top text-sm text-slate-800';
const PREVIEW = 120;

/** The body as compact JSON, cut to a line's worth. */
function preview(body: unknown): string {
  const text = JSON.stringify(body) ?? '';
  return text.length > PREVIEW ? `${text.slice(0, PREVIEW)}…` : text;
}

const plural = (n: number, one: string) => `${count(n)} ${one}${n === 1 ? '' : 's'}`;

/**
 * Messages that failed every attempt: Redrive sends the chosen ones (or all) back to the backlog, their attempts
 * starting over; Discard drops one for good, after a confirmation.
 */
export function DeadLetters({
  orgId,
  projectId,
  subscriptionId,
  total,
  canRedrive,
}: SubscriptionAddress & {
  /** The backlog's dead-lettered count, from the server (the list may hold only its first page). */
  total: number | undefined;
  canRedrive: boolean;
}) {
  const zone = useZone();
  const letters = useDeadLetters(orgId, projectId, subscriptionId);
  const redrive = useRedriveDeadLetters(orgId, projectId, subscriptionId);
  const discard = useDiscardDeadLetter(orgId, projectId, subscriptionId);
  const [chosen, setChosen] = useState<ReadonlySet<string>>(new Set());
  const [redrivingAll, setRedrivingAll] = useState(false);
  const [toDiscard, setToDiscard] = useState<DeadLetter | null>(null);
  // Only what is still listed counts as chosen: a refresh drops what was redriven or discarded meanwhile.
  const listed = new Set(letters.items.map((l) => l.messageId));
  const selected = [...chosen].filter((id) => listed.has(id));

  const toggle = (id: string, on: boolean) =>
    setChosen((now) => {
      const next = new Set(now);
      if (on) next.add(id);
      else next.delete(id);
      return next;
    });

  const send = async (ids?: string[]) => {
    const outcome = await runMutation(() => redrive.mutateAsync(ids), {
      success: ({ redriven }) =>
        redriven === 0
          ? 'Nothing was redriven: those messages are no longer dead letters.'
          : `Redrove ${plural(redriven, 'message')}: ${redriven === 1 ? 'it is' : 'they are'} delivered again.`,
      failure: 'Could not redrive',
    });
    if (outcome.ok) setChosen(new Set());
    return outcome.ok;
  };

  return (
    <section aria-labelledby="dead-letters-title" className="mt-8">
      <div className="mb-3 flex flex-wrap items-end justify-between gap-3">
        <h2 id="dead-letters-title" className="text-lg font-semibold text-slate-900">
          Dead letters
          {total !== undefined && <span className="ml-2 text-sm font-normal text-slate-600">{count(total)}</span>}
        </h2>
        {canRedrive && (
          <div className="flex flex-wrap gap-2">
            {/* Never disabled, not even while it works (a disabled button drops focus): focus stays on the
                button that was pressed, whatever the list becomes; a press while one is on its way is ignored. */}
            <Button
              variant="secondary"
              size="sm"
              aria-busy={redrive.isPending || undefined}
              onClick={() => {
                if (redrive.isPending) return;
                if (selected.length === 0)
                  toast.info('Choose the dead letters to redrive first, with the boxes in the list.');
                else void send(selected);
              }}
            >
              Redrive selected ({selected.length})
            </Button>
            <Button
              variant="secondary"
              size="sm"
              onClick={() =>
                letters.items.length === 0 ? toast.info('There are no dead letters to redrive.') : setRedrivingAll(true)
              }
            >
              Redrive all
            </Button>
          </div>
        )}
      </div>
      <ListStates
        list={letters}
        loading="Loading dead letters"
        columns={5}
        errorTitle="Could not load the dead letters"
        empty={
          <EmptyState title="No dead letters">
            A message that fails every attempt of the retry policy waits here until it is redriven or discarded.
          </EmptyState>
        }
      >
        <DataTable
          caption="Dead letters, oldest first"
          columns={['Message', 'Attempts', 'Last error', 'Dead-lettered', null]}
          minWidth="52rem"
          stacked
          footer={<LoadMore list={letters} />}
        >
          {letters.items.map((letter) => (
            <tr key={letter.messageId} data-testid={`dead-letter-${letter.messageId}`}>
              <th scope="row" className={`${cell} max-w-[22rem] text-left font-normal max-sm:max-w-none`}>
                <div className="flex items-start gap-2">
                  {canRedrive && (
                    <input
                      type="checkbox"
                      className="mt-0.5 size-4 shrink-0 rounded border-slate-300 text-indigo-600 focus:ring-indigo-600"
                      checked={chosen.has(letter.messageId)}
                      onChange={(e) => toggle(letter.messageId, e.target.checked)}
                      aria-label={`Choose message ${letter.messageId}`}
                    />
                  )}
                  <div className="min-w-0">
                    <p className="font-mono text-xs">{letter.messageId}</p>
                    <p className="mt-1 truncate font-mono text-xs text-slate-600" title={JSON.stringify(letter.body)}>
                      {preview(letter.body)}
                    </p>
                    {Object.keys(letter.attributes).length > 0 && (
                      <p className="mt-1 text-xs text-slate-600">
                        {Object.entries(letter.attributes)
                          .map(([k, v]) => `${k}=${v}`)
                          .join(', ')}
                      </p>
                    )}
                  </div>
                </div>
              </th>
              <td data-label="Attempts" className={`${cell} tabular-nums`}>
                {letter.attempts}
              </td>
              <td data-label="Last error" className={cell}>
                {letter.lastError ? errorInWords(letter.lastError) : <span className="text-slate-600">—</span>}
              </td>
              <td data-label="Dead-lettered" className={`${cell} whitespace-nowrap`}>
                <time dateTime={letter.deadLetteredAt} title={exactTime(letter.deadLetteredAt, zone)}>
                  {dayAndSecond(letter.deadLetteredAt, zone)}
                </time>
              </td>
              <ActionsCell>
                {canRedrive && (
                  <RowAction
                    label="Discard"
                    name={`Discard message ${letter.messageId}`}
                    onClick={() => setToDiscard(letter)}
                  />
                )}
              </ActionsCell>
            </tr>
          ))}
        </DataTable>
      </ListStates>
      <ConfirmDialog
        open={redrivingAll}
        onOpenChange={setRedrivingAll}
        tone="primary"
        title={`Redrive ${total === undefined ? 'every' : plural(total, 'dead letter')}?`}
        description={<p>They go back to the backlog, due now, and their attempts start over.</p>}
        confirmLabel="Redrive all"
        onConfirm={() => send()}
      />
      <ConfirmDialog
        open={toDiscard !== null}
        onOpenChange={(open) => !open && setToDiscard(null)}
        title="Discard this message?"
        description={
          <p>
            Message <span className="font-mono">{toDiscard?.messageId}</span> is never delivered to this subscription.
            Other subscriptions of the queue keep their copy. This cannot be undone.
          </p>
        }
        confirmLabel="Discard message"
        removesOpener
        onConfirm={async () => {
          if (!toDiscard) return false;
          const id = toDiscard.messageId;
          const outcome = await runMutation(() => discard.mutateAsync(id), {
            success: `Discarded message ${id}.`,
            failure: 'Could not discard the message',
          });
          return outcome.ok;
        }}
      />
    </section>
  );
}
