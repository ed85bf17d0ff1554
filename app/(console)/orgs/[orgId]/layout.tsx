import type { ReactNode } from 'react';
import { ConsoleShell } from '@/components/console/shell';

export default async function OrganizationLayout({
  children,
  params,
}: {
  children: ReactNode;
  params: Promise<{ orgId: string }>;
}) {
  const { orgId } = await params;
  return <ConsoleShell orgId={orgId}>{children}</ConsoleShell>;
}
