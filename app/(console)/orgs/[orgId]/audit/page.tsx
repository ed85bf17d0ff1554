import type { Metadata } from 'next';
import { AuditLogView } from './_components/audit-log-view';

export const metadata: Metadata = { title: 'Audit log' };

export default async function Page({ params }: { params: Promise<{ orgId: string }> }) {
  const { orgId } = await params;
  return <AuditLogView orgId={orgId} />;
}
