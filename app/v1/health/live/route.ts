import { otherMethods } from '@/lib/pipeline/methods';
import { json, publicRoute } from '@/lib/pipeline/route';
import { livenessOp } from '@/lib/orgs/operations';

// Liveness touches no dependency: a database outage must not make an orchestrator restart healthy processes.
export const GET = publicRoute(livenessOp, async () => json({ status: 'ok' }));

export const { POST, PUT, PATCH, DELETE } = otherMethods(livenessOp);
