'use client';

import { newKeyHref, useConsoleOrigin, UseFromCode } from '@/components/console/use-from-code';
import { API_KEY_VARIABLE, curlLine, fillPath, type CodeAct } from '@/lib/console/code-samples';

/** Reading this subscription's status and backlog from code, by its short id. */
export function SubscriptionCode({
  orgId,
  projectId,
  subscriptionSlug,
  read,
  activity,
}: {
  orgId: string;
  projectId: string;
  subscriptionSlug: string;
  read: CodeAct;
  activity: CodeAct;
}) {
  const origin = useConsoleOrigin();
  const values = { orgId, projectId, subscriptionId: subscriptionSlug };
  const permissions = [...new Set([...read.permissions, ...activity.permissions])];
  return (
    <UseFromCode
      samples={[
        {
          id: 'code-subscription-status',
          title: 'Read its status',
          text: curlLine({ method: read.method, url: `${origin}${fillPath(read.path, values)}` }),
        },
        {
          id: 'code-subscription-activity',
          title: 'Read its backlog and last hour',
          text: curlLine({ method: activity.method, url: `${origin}${fillPath(activity.path, values)}` }),
        },
      ]}
      note={
        `Each reads the key from $${API_KEY_VARIABLE}. The first answers its state (active or paused) and health, ` +
        'with its last error and success; the second what waits, is in flight or dead-lettered, and the last hour.'
      }
      needs={[{ what: 'Both', permissions }]}
      makeKey={newKeyHref(orgId, projectId, permissions)}
    />
  );
}
