import { redirect } from 'next/navigation';
import { EmptyState } from '@/components/ui/states';
import { requireConsoleUser } from '@/lib/auth/session';
import { listOrganizations } from '@/lib/orgs/service';

export default async function OrganizationsIndex() {
  const user = await requireConsoleUser();
  const { items } = await listOrganizations(user, { limit: 1 });
  if (items[0]) redirect(`/orgs/${items[0].id}`);
  return (
    <main className="mx-auto max-w-lg px-4 py-24">
      <EmptyState title="You are not in any organization yet">
        Ask an administrator of your organization to invite you.
      </EmptyState>
    </main>
  );
}
