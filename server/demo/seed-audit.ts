import { randomUUID } from 'node:crypto';
import { displayPrefix, generateApiKey, sha256Hex } from '../../lib/auth/api-key-format';
import { recordAuditEvent } from '../../lib/audit/record';
import { credentialLabel, userActor } from '../../lib/audit/source';
import type { AuditContext, AuditEventInput } from '../../lib/db/audit-types';
import type { Tx } from '../../lib/db/client';
import * as t from '../../lib/db/schema';

type Named = { id: string; name: string };
type Demo = {
  acmeId: string;
  productionId: string;
  ada: Named;
  bob: Named;
  cy: Named;
  deployBot: Named;
  failing: typeof t.subscriptions.$inferSelect;
  orders: typeof t.subscriptions.$inferSelect;
  investigation: typeof t.silences.$inferSelect;
};

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const LAPTOP: AuditContext = {
  requestId: null,
  ip: '203.0.113.24',
  userAgent: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) Firefox/133.0',
};
const CI: AuditContext = { requestId: null, ip: '198.51.100.7', userAgent: 'svc-deployer/2.4' };

/**
 * A short, believable history for Acme, written through the audit chain like any change: a bot key made
 * and later revoked, two subscription edits (one by the bot), a silence comment, a CLI login, sign-ins.
 */
export async function seedAuditHistory(tx: Tx, demo: Demo, now: number): Promise<void> {
  const secret = generateApiKey();
  const [key] = await tx
    .insert(t.apiKeys)
    .values({
      organizationId: demo.acmeId,
      name: 'ci pipeline (old)',
      prefix: displayPrefix(secret),
      secretHash: sha256Hex(secret),
      ownerType: 'bot',
      ownerId: demo.deployBot.id,
      createdByUserId: demo.ada.id,
      createdAt: new Date(now - 13 * DAY),
      revokedAt: new Date(now - 3 * DAY),
      revokedReason: 'revoked',
      revokedById: demo.ada.id,
    })
    .returning();
  const keyTarget = { type: 'api_key', id: key.id, name: `${key.name} (${key.prefix}…)` };
  const ada = { actor: userActor(demo.ada), context: LAPTOP };
  const bob = { actor: userActor(demo.bob), context: { ...LAPTOP, ip: '203.0.113.51' } };
  const bot = {
    actor: {
      type: 'bot' as const,
      id: demo.deployBot.id,
      name: demo.deployBot.name,
      via: 'api_key' as const,
      credential: credentialLabel(key.prefix),
    },
    context: CI,
  };
  const org = demo.acmeId;
  const subscription = (s: typeof demo.orders) => ({ type: 'subscription', id: s.id, name: s.slug });
  const history: [number, AuditEventInput][] = [
    [
      14 * DAY,
      {
        ...ada,
        organizationId: org,
        action: 'sign_in.succeeded',
        target: { type: 'user', ...demo.ada },
        reason: 'password',
      },
    ],
    [
      13 * DAY,
      {
        ...ada,
        organizationId: org,
        action: 'api_key.created',
        target: keyTarget,
        reason: `for bot ${demo.deployBot.name}`,
      },
    ],
    [
      9 * DAY,
      {
        ...bob,
        organizationId: org,
        projectId: demo.productionId,
        action: 'subscription.updated',
        target: subscription(demo.failing),
        changes: [{ field: 'target.timeoutSeconds', from: 30, to: 10 }],
      },
    ],
    [
      6 * DAY,
      {
        ...bot,
        organizationId: org,
        projectId: demo.productionId,
        action: 'subscription.updated',
        target: subscription(demo.orders),
        changes: [{ field: 'batchSize', from: 5, to: 10 }],
      },
    ],
    [3 * DAY, { ...ada, organizationId: org, action: 'api_key.revoked', target: keyTarget, reason: 'revoked' }],
    [
      2 * DAY,
      {
        ...bob,
        organizationId: org,
        projectId: demo.productionId,
        action: 'silence.updated',
        target: { type: 'silence', id: demo.investigation.id, name: demo.investigation.slug },
        changes: [{ field: 'comment', from: 'Checkout latency under investigation', to: demo.investigation.comment }],
      },
    ],
    [
      DAY,
      {
        ...bob,
        organizationId: org,
        action: 'device_login.approved',
        target: { type: 'device_login', id: randomUUID(), name: 'svc CLI' },
      },
    ],
    [
      3 * HOUR,
      {
        actor: { ...userActor(demo.cy), via: null },
        context: LAPTOP,
        organizationId: org,
        action: 'sign_in.failed',
        target: { type: 'user', ...demo.cy },
        reason: 'wrong_password',
      },
    ],
    [
      3 * HOUR - 40_000,
      {
        actor: userActor(demo.cy),
        context: LAPTOP,
        organizationId: org,
        action: 'sign_in.succeeded',
        target: { type: 'user', ...demo.cy },
        reason: 'password',
      },
    ],
  ];
  for (const [ago, event] of history) await recordAuditEvent(tx, event, new Date(now - ago));
}
