import { effectivePermissionsOp } from '@/lib/access/operations';
import { effectivePermissionsRoute } from '@/lib/access/routes';
import { otherMethods } from '@/lib/pipeline/methods';

export const GET = effectivePermissionsRoute;

export const { POST, PUT, PATCH, DELETE } = otherMethods(effectivePermissionsOp);
