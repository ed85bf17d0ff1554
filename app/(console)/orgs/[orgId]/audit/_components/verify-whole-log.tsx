'use client';

import { useEffect, useRef } from 'react';
import { toast } from 'sonner';
import { RelativeTime } from '@/components/console/time';
import { Button } from '@/components/ui/button';
import { runMutation } from '@/components/console/feedback';
import type { AuditVerification } from '@/lib/audit/schema';
import { useLatestAuditVerification, useStartAuditVerification } from '@/lib/audit/queries';

const count = (n: number) => n.toLocaleString('en');

/** What a finished job found, in one sentence (also the toast's text). */
function outcome(job: AuditVerification): string {
  if (job.state === 'failed') return `The verification did not finish. ${job.error ?? ''}`.trim();
  if (job.firstBrokenSeq === null) return `The whole log verifies: ${count(job.verified)} events check out.`;
  return `The chain is broken at seq ${job.firstBrokenSeq}: the ${count(job.verified)} events before it check out.`;
}

/**
 * "Verify the whole log": starts the full re-verification job, shows its progress while it runs (polled) and
 * its result after, and announces the result in a toast when a job seen running on this page ends. It takes its
 * place before the permission is known (`allowed`), asking nothing and offering nothing until then, so the page
 * below it does not move when it arrives.
 */
export function VerifyWholeLog({ orgId, allowed }: { orgId: string; allowed: boolean }) {
  const latest = useLatestAuditVerification(orgId, { enabled: allowed });
  const start = useStartAuditVerification(orgId);
  const job = latest.data ?? null;
  const running = job?.state === 'running';

  // Announce only an end this page saw happen (not the result of an earlier job found on load).
  const watching = useRef<string | null>(null);
  useEffect(() => {
    if (!job) return;
    if (job.state === 'running') watching.current = job.id;
    else if (watching.current === job.id) {
      watching.current = null;
      if (job.state === 'succeeded' && job.firstBrokenSeq === null) toast.success(outcome(job));
      else toast.error(outcome(job));
    }
  }, [job]);

  return (
    <section aria-labelledby="verify-whole-log" className="mb-6 rounded-lg border border-slate-200 bg-white p-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div className="min-w-0">
          <h2 id="verify-whole-log" className="text-sm font-semibold text-slate-900">
            Hash chain
          </h2>
          <p className="text-sm text-slate-600">
            Re-hash every event from the oldest kept one, to find any event changed or removed in the database.
          </p>
        </div>
        <Button
          variant="secondary"
          pending={start.isPending}
          disabled={!allowed || running || latest.isPending}
          onClick={() =>
            void runMutation(() => start.mutateAsync(), {
              success: (started) => `Verifying the whole log: ${count(started.total)} events.`,
              failure: 'Could not start the verification',
            })
          }
        >
          Verify the whole log
        </Button>
      </div>
      {job && running && <Progress job={job} />}
      {/* The result's line is kept while it loads and when no job ran, so its arrival moves nothing. */}
      {!job && (
        <p className="mt-3 text-sm text-slate-500">
          {latest.isPending ? '\u00a0' : 'No full verification has run yet.'}
        </p>
      )}
      {job && !running && (
        <p
          className={`mt-3 text-sm ${job.state === 'succeeded' && job.firstBrokenSeq === null ? 'text-emerald-700' : 'text-red-700'}`}
        >
          {outcome(job)}{' '}
          {job.finishedAt && (
            <span className="text-slate-500">
              Finished <RelativeTime iso={job.finishedAt} />.
            </span>
          )}
        </p>
      )}
    </section>
  );
}

function Progress({ job }: { job: AuditVerification }) {
  const percent = job.total > 0 ? Math.min(100, Math.floor((job.verified / job.total) * 100)) : 0;
  return (
    <div className="mt-3">
      <div
        role="progressbar"
        aria-label="Verification of the whole log"
        aria-valuemin={0}
        aria-valuemax={job.total}
        aria-valuenow={job.verified}
        aria-valuetext={`${count(job.verified)} of ${count(job.total)} events`}
        className="h-2 w-full overflow-hidden rounded-full bg-slate-100"
      >
        <div className="h-full rounded-full bg-indigo-600 transition-[width]" style={{ width: `${percent}%` }} />
      </div>
      <p className="mt-1 text-xs text-slate-600">
        {count(job.verified)} of {count(job.total)} events ({percent} %)
      </p>
    </div>
  );
}
