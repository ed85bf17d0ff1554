'use client';

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiFetch, apiGet } from '../api-client';
import type { DeviceAuthorizationView } from './schema';

/** Query keys of device login; never inline string keys. */
export const deviceKeys = {
  all: ['device-authorizations'] as const,
  byCode: (userCode: string) => [...deviceKeys.all, userCode] as const,
};

const path = (userCode: string) => `/v1/device-authorizations/${encodeURIComponent(userCode)}`;

export function useDeviceAuthorization(userCode: string | null) {
  return useQuery({
    queryKey: deviceKeys.byCode(userCode ?? ''),
    queryFn: () => apiGet<DeviceAuthorizationView>(path(userCode!)),
    enabled: userCode !== null,
    staleTime: Infinity,
  });
}

export function useDecideDeviceAuthorization(userCode: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (decision: 'approve' | 'deny') =>
      (await apiFetch<DeviceAuthorizationView>(`${path(userCode)}/${decision}`, { method: 'POST' })).data,
    onSuccess: (decided) => queryClient.setQueryData(deviceKeys.byCode(userCode), decided),
  });
}
