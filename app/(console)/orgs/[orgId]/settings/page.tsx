import type { Metadata } from 'next';
import { SettingsView } from './_components/settings-view';

export const metadata: Metadata = { title: 'Settings' };

export default async function Page({
  params,
  searchParams,
}: {
  params: Promise<{ orgId: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const [{ orgId }, search] = await Promise.all([params, searchParams]);
  // The organizations and projects this page shows already come with the console's frame. `?new-project=alerting`
  // (the overview's guided start) opens New project with alerting on.
  return <SettingsView orgId={orgId} newProjectWithAlerting={search['new-project'] === 'alerting'} />;
}
