import type { ReactNode } from 'react';
import { Providers } from '@/components/console/providers';

// Outside the (console) group: its layout would send signed-out people to /login without this page's user_code.
export default function DeviceLayout({ children }: { children: ReactNode }) {
  return <Providers>{children}</Providers>;
}
