import { describe, expect, it } from 'vitest';
import { allOperations } from '../../server/operations';
import { buildOpenApiDocument } from '../pipeline/openapi';

// PRODUCT.md, "Second factor and sudo", "Least privilege for keys" (changing a key's restrictions), "Onboarding and
// administration" (invitations, policies, bots) and "Queues" (a subscription's signing secret, as for webhooks):
// exactly these need a recent authentication of the console session.
const GUARDED = [
  'DELETE /v1/me/passkeys/{passkeyId}',
  'DELETE /v1/me/totp',
  'DELETE /v1/organizations/{orgId}/bots/{botId}',
  'DELETE /v1/organizations/{orgId}/members/{userId}',
  'PATCH /v1/organizations/{orgId}',
  'PATCH /v1/organizations/{orgId}/api-keys/{keyId}',
  'POST /v1/device-authorizations/{userCode}/approve',
  'POST /v1/me/passkeys',
  'POST /v1/me/passkeys/options',
  'POST /v1/me/recovery-codes',
  'POST /v1/me/totp',
  'POST /v1/organizations/{orgId}/api-keys',
  'POST /v1/organizations/{orgId}/api-keys/{keyId}/roll',
  'POST /v1/organizations/{orgId}/bots',
  'POST /v1/organizations/{orgId}/invitations',
  'POST /v1/organizations/{orgId}/invitations/{invitationId}/resend',
  'POST /v1/organizations/{orgId}/projects/{projectId}/subscriptions/{subscriptionId}/rotate-secret',
  'POST /v1/organizations/{orgId}/scim-tokens',
  'POST /v1/organizations/{orgId}/webhooks',
  'POST /v1/organizations/{orgId}/webhooks/{webhookId}/rotate-secret',
  'PUT /v1/organizations/{orgId}/bots/{botId}/policies',
  'PUT /v1/organizations/{orgId}/members/{userId}/policies',
];

describe('sudo declarations', () => {
  it('mark exactly the operations PRODUCT.md guards', () => {
    const marked = allOperations.filter((op) => op.sudo).map((op) => `${op.method} ${op.path}`);
    expect(marked.sort()).toEqual(GUARDED);
  });

  it('never guard an operation only bearer credentials reach, which would never be asked', () => {
    for (const op of allOperations.filter((o) => o.sudo)) {
      expect(Array.isArray(op.credentials) && op.credentials.includes('session'), op.path).toBe(true);
    }
  });

  it('show 403 reauthentication_required in the document for every guarded operation, and only there', () => {
    const doc = buildOpenApiDocument(allOperations) as unknown as {
      paths: Record<string, Record<string, { responses: Record<string, { description: string }> }>>;
    };
    for (const op of allOperations.filter((o) => o.credentials !== 'public' && o.credentials !== 'signed')) {
      const forbidden = doc.paths[op.path][op.method.toLowerCase()].responses['403']?.description ?? '';
      expect(forbidden.includes('reauthentication_required'), `${op.method} ${op.path}`).toBe(Boolean(op.sudo));
    }
  });
});
