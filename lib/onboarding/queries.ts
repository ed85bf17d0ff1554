'use client';

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiFetch, apiGet } from '../api-client';
import { usePagedList } from '../console/paged-list';
import { useWrite } from '../console/write';
import type { z } from 'zod';
import type { CreateInvitationBody, Invitation, invitationPreview, issuedInvitation } from './invitation-schema';
import { onboardingKeys } from './keys';
import type { GettingStarted } from './schema';

export { onboardingKeys };

export type { Invitation };
/** The answer to inviting or resending: `url` only when the server sends no email, shown once to pass on. */
export type InvitationSent = z.infer<typeof issuedInvitation>;
export type InvitationPreview = z.infer<typeof invitationPreview>;

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
  return useWrite<CreateInvitationBody, InvitationSent>(
    (body) => [`/v1/organizations/${orgId}/invitations`, { method: 'POST', body }],
    onboardingKeys.invitations(orgId),
  );
}

/** `POST …/invitations/{id}/resend` (sudo): a new token; the old link dies. */
export function useResendInvitation(orgId: string) {
  return useWrite<string, InvitationSent>(
    (id) => [`/v1/organizations/${orgId}/invitations/${id}/resend`, { method: 'POST' }],
    onboardingKeys.invitations(orgId),
  );
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

/** The organization's first steps (`GET …/getting-started`), for the overview's guided start. */
export function useGettingStarted(orgId: string, enabled: boolean) {
  return useQuery({
    queryKey: onboardingKeys.gettingStarted(orgId),
    queryFn: () => apiGet<GettingStarted>(`/v1/organizations/${orgId}/getting-started`),
    enabled,
  });
}
