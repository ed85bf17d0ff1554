import { scimRoute } from '@/lib/scim/http';
import { getUser, patchUser, replaceUser } from '@/lib/scim/users';

export const GET = scimRoute(getUser);
export const PATCH = scimRoute(patchUser);
export const PUT = scimRoute(replaceUser);
