import { listOrganizationsOp } from '@/lib/orgs/operations';
import { listOrganizationsRoute } from '@/lib/orgs/routes';
import { otherMethods } from '@/lib/pipeline/methods';

export const GET = listOrganizationsRoute;

export const { POST, PUT, PATCH, DELETE } = otherMethods(listOrganizationsOp);
