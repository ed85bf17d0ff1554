'use client';

import { useMutation, useQueryClient, type QueryKey } from '@tanstack/react-query';
import { apiFetch, type ApiRequest } from '../api-client';

/**
 * The console's one way to write through the API and show what changed: `request` names the call for an input, the
 * mutation's result is the answer's data, and the query `refresh` names (the list the write changed) is read again
 * once the write settles, whether it succeeded or not (a refused write may still mean the list moved on).
 */
export function useWrite<Input, Result>(
  request: (input: Input) => [path: string, init: ApiRequest],
  refresh: QueryKey,
) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (input: Input) => (await apiFetch<Result>(...request(input))).data,
    onSettled: () => client.invalidateQueries({ queryKey: refresh }),
  });
}
