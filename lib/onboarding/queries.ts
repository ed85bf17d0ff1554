'use client';

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiFetch, apiGet } from '../api-client';
import { usePagedList } from '../console/paged-list';
import { onboardingKeys } from './keys';

export { onboardingKeys };

type Binding = { policy: string; projectId: string | null };

/** A pending invitation as `…/invitations` lists it (PRODUCT.md, "Invitations"). */
export type Invitation = {
  id: string;
  email: string;
  policies: Binding[];
  invitedBy: { name: string } | null;
  createdAt: string;
  expiresAt: string;
};

/** The answer to inviting or resending: `url` only when the server sends no email, shown once to pass on. */
export type InvitationSent = { invitation: Invitation; url?: string };

/** What the invitee's page reads: `GET /v1/invitations/{token}` (public). */
export type InvitationPreview = {
  organization: { id: string; name: string };
  invitedBy: { name: string };
  email: string;
};

export function useInvitations(orgId: string, enabled = true) {
  return usePagedList<Invitation>(
    onboardingKeys.invitations(orgId),
    `/v1/organizations/${orgId}/invitations`,
    {},
    {
      enabled,
    },
  );
}

/** `POST …/invitations` (sudo). A plain request result, so a returned link never sits in a query cache. */
export function useInvite(orgId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (body: { email: string; policies: Binding[] }) =>
      (await apiFetch<InvitationSent>(`/v1/organizations/${orgId}/invitations`, { method: 'POST', body })).data,
    onSettled: () => client.invalidateQueries({ queryKey: onboardingKeys.invitations(orgId) }),
  });
}

/** `POST …/invitations/{id}/resend` (sudo): a new token; the old link dies. */
export function useResendInvitation(orgId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (id: string) =>
      (await apiFetch<InvitationSent>(`/v1/organizations/${orgId}/invitations/${id}/resend`, { method: 'POST' })).data,
    onSettled: () => client.invalidateQueries({ queryKey: onboardingKeys.invitations(orgId) }),
  });
}

export function useRevokeInvitation(orgId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => apiFetch<void>(`/v1/organizations/${orgId}/invitations/${id}`, { method: 'DELETE' }),
    onSettled: () => client.invalidateQueries({ queryKey: onboardingKeys.invitations(orgId) }),
  });
}

/** The invitee's view of an invitation; a 404 (unknown, used, revoked, expired) is an answer, not retried. */
export function useInvitationPreview(token: string) {
  return useQuery({
    queryKey: onboardingKeys.invitation(token),
    queryFn: () => apiGet<InvitationPreview>(`/v1/invitations/${encodeURIComponent(token)}`),
    retry: false,
  });
}
