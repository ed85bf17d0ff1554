import type { ReactNode } from 'react';
import { Providers } from '@/components/console/providers';
import { requireConsoleUser } from '@/lib/auth/session';
import { UserProvider } from '@/components/console/user-context';
import { DeliveryTargetsProvider } from '@/components/console/delivery-targets';
import { loopbackAllowed } from '@/lib/delivery/address';

export default async function ConsoleLayout({ children }: { children: ReactNode }) {
  const user = await requireConsoleUser();
  return (
    <Providers>
      <UserProvider user={{ id: user.id, name: user.name, email: user.email }}>
        <DeliveryTargetsProvider loopback={loopbackAllowed()}>{children}</DeliveryTargetsProvider>
      </UserProvider>
    </Providers>
  );
}
