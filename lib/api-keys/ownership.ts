import type { Principal } from '../auth/principal';
import type { Owner } from './service';

/** Whether the caller is the key's owner (a user acting by any credential, or the bot by its own key). */
export const isOwner = (owner: Owner, principal: Pick<Principal, 'type' | 'id'>) =>
  owner.type === principal.type && owner.id === principal.id;
