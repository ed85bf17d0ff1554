'use client';

import Link from 'next/link';
import { hasGrant, usePermissions } from '@/lib/access/queries';
import { GETTING_STARTED_NEEDS } from '@/lib/onboarding/getting-started';
import { useGettingStarted } from '@/lib/onboarding/queries';
import type { GettingStarted as Steps } from '@/lib/onboarding/schema';

type Step = { key: keyof Steps; title: string; todo: string; link: { href: string; label: string } | null };

/** Each step in the order a team takes them, what it is for, and the page where it is done. */
function stepsOf(orgId: string, steps: Steps): Step[] {
  const project = (id: string | null, page: string) => (id ? `/orgs/${orgId}/projects/${id}/${page}` : null);
  const alerts = project(steps.sender.projectId, 'alerts');
  const queues = project(steps.queue.projectId, 'queues');
  return [
    {
      key: 'alerting',
      title: 'A project with alerting',
      todo: 'Alerts and silences live in a project with alerting on: make one (it starts with alerting on), or switch it on for a project in Settings.',
      link: { href: `/orgs/${orgId}/settings?new-project=alerting`, label: 'New project' },
    },
    {
      key: 'colleague',
      title: 'A colleague',
      todo: 'Invite someone by email with their roles; without email set up, you pass on the link shown.',
      link: { href: `/orgs/${orgId}/members`, label: 'Members' },
    },
    {
      key: 'sender',
      title: 'Prometheus connected',
      todo: alerts
        ? "The project's Alerts page makes a sender key and the prometheus.yml entry to paste."
        : 'Once a project has alerting, its Alerts page says how to connect Prometheus.',
      link: alerts ? { href: alerts, label: 'Alerts' } : null,
    },
    {
      key: 'queue',
      title: 'A queue with a subscription',
      todo: "A queue carries messages to the endpoints that subscribe to it: a project's Queues page makes both.",
      link: queues ? { href: queues, label: 'Queues' } : null,
    },
  ];
}

/**
 * The overview's next steps for an admin, read from the organization as it is (`GET …/getting-started`, with the
 * page on the server): each step says whether it is done, and the ones to do link to their page. Gone once all are.
 */
export function GettingStarted({ orgId }: { orgId: string }) {
  const permissions = usePermissions(orgId);
  const admin = GETTING_STARTED_NEEDS.every((p) => hasGrant(permissions.data, p) === true);
  const { data } = useGettingStarted(orgId, admin);
  if (!admin || !data) return null;
  const steps = stepsOf(orgId, data);
  const left = steps.filter((s) => !data[s.key].done).length;
  if (left === 0) return null;
  return (
    <section aria-labelledby="getting-started" className="mb-6 rounded-lg bg-white p-5 shadow-sm ring-1 ring-slate-200">
      <h2 id="getting-started" className="text-base font-semibold text-slate-900">
        Get started
      </h2>
      <p className="mt-1 text-sm text-slate-600">
        {left} of {steps.length} steps left. This panel goes once they are all done.
      </p>
      <ol className="mt-3 divide-y divide-slate-100">
        {steps.map((step) => {
          const done = data[step.key].done;
          return (
            <li key={step.key} className="flex flex-wrap items-start gap-x-3 gap-y-1 py-3">
              <span
                aria-hidden="true"
                className={`mt-0.5 flex size-5 shrink-0 items-center justify-center rounded-full text-xs font-bold ${
                  done ? 'bg-green-100 text-green-800' : 'bg-slate-100 text-slate-600'
                }`}
              >
                {done ? '✓' : '•'}
              </span>
              <div className="min-w-0 flex-1 basis-48">
                <p className="text-sm font-medium text-slate-900">
                  {step.title}
                  <span className="sr-only">{done ? ': done' : ': to do'}</span>
                </p>
                {done ? (
                  <p className="text-sm text-green-800">Done.</p>
                ) : (
                  <p className="text-sm text-slate-600">{step.todo}</p>
                )}
              </div>
              {!done && step.link && (
                <Link
                  href={step.link.href}
                  className="shrink-0 text-sm font-semibold text-indigo-700 hover:text-indigo-600"
                >
                  {step.link.label}
                  <span className="sr-only"> (step: {step.title})</span>
                  <span aria-hidden="true"> →</span>
                </Link>
              )}
            </li>
          );
        })}
      </ol>
    </section>
  );
}
