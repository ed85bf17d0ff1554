import { listProjectsOp } from '@/lib/orgs/operations';
import { listProjectsRoute } from '@/lib/orgs/routes';
import { otherMethods } from '@/lib/pipeline/methods';

export const GET = listProjectsRoute;

export const { POST, PUT, PATCH, DELETE } = otherMethods(listProjectsOp);
