'use client';

import { focusManager, QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { useEffect, useState, type ReactNode } from 'react';
import { Toaster } from 'sonner';
import { ApiRequestError } from '@/lib/api-client';
import { AuthPrompts } from './sudo-dialog';

export function Providers({ children }: { children: ReactNode }) {
  const [client] = useState(
    () =>
      new QueryClient({
        defaultOptions: {
          queries: {
            staleTime: 15_000,
            // Retrying a 4xx cannot help; a network blip or a 503 may clear.
            retry: (count, error) =>
              count < 2 && !(error instanceof ApiRequestError && error.status >= 400 && error.status < 500),
          },
        },
      }),
  );
  // react-query 5 hears only `visibilitychange` (a tab shown again); coming back from another window is a `focus` of
  // this one, and refreshes as well. Two events for one return ask once: a fetch under way is shared.
  useEffect(() => {
    focusManager.setEventListener((handleFocus) => {
      const refocused = () => handleFocus();
      window.addEventListener('visibilitychange', refocused, false);
      window.addEventListener('focus', refocused, false);
      return () => {
        window.removeEventListener('visibilitychange', refocused);
        window.removeEventListener('focus', refocused);
      };
    });
  }, []);
  return (
    <QueryClientProvider client={client}>
      {children}
      {/* 403 reauthentication_required and two_factor_required, for every request of the console. */}
      <AuthPrompts />
      {/* Every change's result (components/console/feedback.ts); a polite live region, in the system's theme. */}
      <Toaster theme="system" richColors closeButton position="bottom-right" />
    </QueryClientProvider>
  );
}
