import { defineOperation, type Operation } from '../lib/pipeline/operation';
import { accessOperations } from '../lib/access/operations';
import { apiKeyOperations } from '../lib/api-keys/operations';
import { auditOperations } from '../lib/audit-log/operations';
import { botOperations } from '../lib/bots/operations';
import { memberOperations } from '../lib/members/operations';
import { scimOperations } from '../lib/scim/operations';
import { orgOperations } from '../lib/orgs/operations';
import { deviceAuthorizationOperations } from '../lib/oauth/operations';
import { sessionOperations } from '../lib/sessions/operations';
import { secretScanningOperations } from '../lib/secret-scanning/operations';
import { secondFactorOperations } from '../lib/second-factor/operations';
import { silenceOperations } from '../lib/silences/operations';
import { alertOperations } from '../lib/alerts/operations';
import { subscriptionOperations } from '../lib/subscriptions/operations';
import { queueOperations } from '../lib/queues/operations';
import { webhookOperations } from '../lib/webhooks/operations';
import { notificationOperations } from '../lib/notifications/operations';
import { onboardingOperations } from '../lib/onboarding/operations';
import { z } from 'zod';

export const openApiOp = defineOperation({
  method: 'GET',
  path: '/v1/openapi.json',
  summary: 'This API as an OpenAPI 3.1 document',
  description: 'Generated from the same operation objects that drive the routes; the CLI types are generated from it.',
  tags: ['Service'],
  scope: 'none',
  credentials: 'public',
  success: { status: 200, description: 'The document.', schema: z.looseObject({ openapi: z.string() }) },
});

export const alertmanagerOpenApiOp = defineOperation({
  method: 'GET',
  path: '/v1/openapi/alertmanager.json',
  summary: 'The Alertmanager API as an OpenAPI 3.1 document',
  description:
    "The per-project Alertmanager v2 family (`/alertmanager/{orgId}/{projectId}/api/v2/…`) in a document of its own: its errors are Alertmanager's JSON strings, not this API's envelope.",
  tags: ['Service'],
  scope: 'none',
  credentials: 'public',
  success: { status: 200, description: 'The document.', schema: z.looseObject({ openapi: z.string() }) },
});

/** Every /v1 operation. A test fails when a route file exists whose method and path are missing here. */
export const allOperations: Operation[] = [
  openApiOp,
  alertmanagerOpenApiOp,
  ...orgOperations,
  ...accessOperations,
  ...apiKeyOperations,
  ...memberOperations,
  ...botOperations,
  ...scimOperations,
  ...queueOperations,
  ...subscriptionOperations,
  ...silenceOperations,
  ...alertOperations,
  ...deviceAuthorizationOperations,
  ...sessionOperations,
  ...auditOperations,
  ...secretScanningOperations,
  ...secondFactorOperations,
  ...webhookOperations,
  ...notificationOperations,
  ...onboardingOperations,
];
