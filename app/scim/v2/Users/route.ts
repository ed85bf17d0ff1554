import { scimRoute } from '@/lib/scim/http';
import { listUsers } from '@/lib/scim/users';

export const GET = scimRoute(listUsers);
