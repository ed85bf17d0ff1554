import { otherMethods } from '@/lib/pipeline/methods';
import { reportLeaksOp } from '@/lib/secret-scanning/operations';
import { signedRoute } from '@/lib/secret-scanning/http';
import { handleLeakReport } from '@/lib/secret-scanning/service';

export const POST = signedRoute(reportLeaksOp, ({ body, source }) => handleLeakReport(body, source));

export const { GET, PUT, PATCH, DELETE } = otherMethods(reportLeaksOp);
