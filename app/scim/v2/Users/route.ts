import { scimRoute } from '@/lib/scim/http';
import { listUsers } from '@/lib/scim/users';
import { createScimUser } from '@/lib/scim/provision';

export const GET = scimRoute(listUsers);
export const POST = scimRoute(createScimUser);
