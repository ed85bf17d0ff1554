import { z } from 'zod';
import { ANY_CREDENTIAL, defineOperation } from '../http/operation';
import { orgParams } from '../orgs/schema';
import { auditEventsPage, chainVerification, exportAuditEventsQuery, listAuditEventsQuery } from './schema';

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
    'and reports the first seq that does not check out. It re-hashes every event from the retention checkpoint, so ' +
    'a row changed anywhere is found (the verified-prefix shortcut waits for the re-verification job).',
  tags: ['Audit log'],
  scope: 'organization',
  credentials: ANY_CREDENTIAL,
  params: orgParams,
  permission: 'auditLog.read',
  success: { status: 200, description: 'How far the chain verifies.', schema: chainVerification },
});

export const auditOperations = [listAuditEventsOp, exportAuditEventsOp, verifyAuditEventsOp];
