'use client';

import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '../api-client';
import { accessKeys } from '../access/keys';
import { apiKeyKeys } from '../api-keys/queries';
import { usePagedList } from '../console/paged-list';
import { orgKeys } from '../orgs/queries';
import { memberKeys } from './keys';
import type { Member, MemberPoliciesBody } from './schema';

export { memberKeys };

export function useMembers(orgId: string, enabled = true) {
  return usePagedList<Member>(memberKeys.list(orgId), `/v1/organizations/${orgId}/members`, {}, { enabled });
}

export function useRemoveMember(orgId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (userId: string) =>
      apiFetch<void>(`/v1/organizations/${orgId}/members/${userId}`, { method: 'DELETE' }),
    onSettled: async () => {
      await client.invalidateQueries({ queryKey: memberKeys.list(orgId) });
      await client.invalidateQueries({ queryKey: apiKeyKeys.lists(orgId) });
    },
  });
}

export function useLeaveOrganization(orgId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => apiFetch<void>(`/v1/organizations/${orgId}/members/me/leave`, { method: 'POST' }),
    onSuccess: () => client.invalidateQueries({ queryKey: orgKeys.list() }),
  });
}

/** Issues the SCIM token with a plain request, so the token never enters react-query's caches. */
export async function createScimToken(orgId: string): Promise<string> {
  const { data } = await apiFetch<{ token: string }>(`/v1/organizations/${orgId}/scim-tokens`, { method: 'POST' });
  return data.token;
}

/** `PUT …/members/{userId}/policies` (sudo): replaces the member's bindings; one's own permissions may change too. */
export function useSetMemberPolicies(orgId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async ({ userId, policies }: MemberPoliciesBody & { userId: string }) =>
      (
        await apiFetch<Member>(`/v1/organizations/${orgId}/members/${userId}/policies`, {
          method: 'PUT',
          body: { policies },
        })
      ).data,
    onSettled: async () => {
      await client.invalidateQueries({ queryKey: memberKeys.list(orgId) });
      await client.invalidateQueries({ queryKey: accessKeys.permissions(orgId) });
    },
  });
}
