import type { Metadata } from 'next';
import { SettingsView } from './_components/settings-view';

export const metadata: Metadata = { title: 'Settings' };

export default async function Page({ params }: { params: Promise<{ orgId: string }> }) {
  const { orgId } = await params;
  // The organizations and projects this page shows already come with the console's frame.
  return <SettingsView orgId={orgId} />;
}
