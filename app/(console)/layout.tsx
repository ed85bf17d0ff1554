import type { ReactNode } from 'react';
import { Providers } from '@/components/console/providers';
import { requireConsoleUser } from '@/lib/auth/session';
import { UserProvider } from '@/components/console/user-context';

export default async function ConsoleLayout({ children }: { children: ReactNode }) {
  const user = await requireConsoleUser();
  return (
    <Providers>
      <UserProvider user={{ id: user.id, name: user.name, email: user.email }}>{children}</UserProvider>
    </Providers>
  );
}
