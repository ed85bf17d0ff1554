import type { Metadata } from 'next';
import { NotificationsView } from './_components/notifications-view';

export const metadata: Metadata = { title: 'Notifications' };

export default async function Page({ params }: { params: Promise<{ orgId: string }> }) {
  await params;
  return <NotificationsView />;
}
