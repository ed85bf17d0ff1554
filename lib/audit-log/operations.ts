import { z } from 'zod';
import { ANY_CREDENTIAL, defineOperation } from '../pipeline/operation';
import { orgParams } from '../orgs/schema';
import {
  auditEventsPage,
  auditVerification,
  auditVerificationParams,
  chainVerification,
  exportAuditEventsQuery,
  listAuditEventsQuery,
} from '../audit/schema';

export const listAuditEventsOp = defineOperation({
  method: 'GET',
  path: '/v1/organizations/{orgId}/audit-events',
  summary: 'List audit events, newest first',
  description:
    'Every change to access or configuration in the organization: who, what, when, from where, and what it changed.',
  tags: ['Audit log'],
  scope: 'organization',
  credentials: ANY_CREDENTIAL,
  params: orgParams,
  query: listAuditEventsQuery,
  permission: 'auditLog.read',
  success: { status: 200, description: 'A page of events.', schema: auditEventsPage },
  errors: ['invalid_cursor'],
});

export const exportAuditEventsOp = defineOperation({
  method: 'GET',
  path: '/v1/organizations/{orgId}/audit-events/export',
  summary: 'Export audit events as NDJSON or CSV',
  description:
    'The same filters as the list, every matching event newest first, streamed (`application/x-ndjson`: one event ' +
    'per line; `text/csv`: one row per event with `changes` as JSON).',
  tags: ['Audit log'],
  scope: 'organization',
  credentials: ANY_CREDENTIAL,
  params: orgParams,
  query: exportAuditEventsQuery,
  permission: 'auditLog.read',
  success: {
    status: 200,
    description: 'The events, streamed.',
    schema: z.string().meta({ description: 'NDJSON or CSV text.' }),
    headers: { 'Content-Disposition': 'attachment; filename="audit-events.ndjson"' },
  },
});

export const verifyAuditEventsOp = defineOperation({
  method: 'GET',
  path: '/v1/organizations/{orgId}/audit-events/verify',
  summary: 'Verify the audit log’s hash chain',
  description:
    'Walks the organization’s events in seq order, recomputing each `SHA-256(previous hash ‖ canonical JSON)`, ' +
    'and reports the first seq that does not check out. It starts from the prefix an earlier verification checked ' +
    '(re-hashing only what is new); a stored event updated or deleted since resets that prefix, so the change is ' +
    'found. `POST …/audit-events/verifications` re-hashes the whole chain as a job.',
  tags: ['Audit log'],
  scope: 'organization',
  credentials: ANY_CREDENTIAL,
  params: orgParams,
  permission: 'auditLog.read',
  success: { status: 200, description: 'How far the chain verifies.', schema: chainVerification },
});

export const startAuditVerificationOp = defineOperation({
  method: 'POST',
  path: '/v1/organizations/{orgId}/audit-events/verifications',
  summary: 'Re-verify the whole audit log (a job)',
  description:
    'Starts re-hashing every event from the retention checkpoint, ignoring verified prefixes, so a row changed ' +
    'anywhere is found (even one changed with the database’s triggers disabled). It runs in the background: poll ' +
    '`GET …/verifications/{id}`. While one runs, this answers that one.',
  tags: ['Audit log'],
  scope: 'organization',
  credentials: ANY_CREDENTIAL,
  params: orgParams,
  permission: 'auditLog.read',
  success: { status: 202, description: 'The job, started or already running.', schema: auditVerification },
});

export const getAuditVerificationOp = defineOperation({
  method: 'GET',
  path: '/v1/organizations/{orgId}/audit-events/verifications/{verificationId}',
  summary: 'A re-verification job’s progress and result',
  description: 'Any instance answers (progress is stored). A running job whose instance stopped is reported `failed`.',
  tags: ['Audit log'],
  scope: 'organization',
  credentials: ANY_CREDENTIAL,
  params: auditVerificationParams,
  permission: 'auditLog.read',
  success: { status: 200, description: 'The job.', schema: auditVerification },
});

export const auditOperations = [
  listAuditEventsOp,
  exportAuditEventsOp,
  verifyAuditEventsOp,
  startAuditVerificationOp,
  getAuditVerificationOp,
];
