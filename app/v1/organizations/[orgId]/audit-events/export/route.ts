import { exportStream } from '@/lib/audit/export-format';
import { exportAuditEventsOp } from '@/lib/audit-log/operations';
import { auditEventBatches } from '@/lib/audit/service';
import { otherMethods } from '@/lib/pipeline/methods';
import { route } from '@/lib/pipeline/route';

const TYPES = { ndjson: 'application/x-ndjson; charset=utf-8', csv: 'text/csv; charset=utf-8' };

export const GET = route(exportAuditEventsOp, async ({ params, query }) => {
  const { format, ...filter } = query;
  return new Response(exportStream(auditEventBatches(params.orgId, filter), format), {
    headers: {
      'content-type': TYPES[format],
      'content-disposition': `attachment; filename="audit-events.${format}"`,
    },
  });
});

export const { POST, PUT, PATCH, DELETE } = otherMethods(exportAuditEventsOp);
