import { describe, expect, it } from 'vitest';
import { POLICIES } from './permissions';

// What PRODUCT.md's policies grant, pinned here so a change to lib/permissions.ts is a decision: the tests that
// evaluate access read the policies from there and would follow any change.
const PINNED: Record<string, string> = {
  BasicAccess:
    'apiKeys.create bots.list obs.alerts.list obs.silences.get obs.silences.list projects.get ' +
    'queues.queues.get queues.queues.list queues.subscriptions.get queues.subscriptions.list',
  QueuesEditor:
    'queues.messages.publish queues.queues.create queues.queues.delete queues.queues.update ' +
    'queues.subscriptions.create queues.subscriptions.delete queues.subscriptions.redrive queues.subscriptions.update',
  SilencesEditor: 'obs.silences.create obs.silences.update',
  AlertSender: 'obs.alerts.create',
};

describe('the named policies', () => {
  it.each(Object.entries(PINNED))('%s grants what PRODUCT.md says', (name, grants) => {
    expect([...POLICIES[name]].sort().join(' ')).toBe(grants);
  });
});
