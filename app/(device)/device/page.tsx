import type { Metadata } from 'next';
import { BrandHeading } from '@/components/ui/brand-heading';
import { requireConsoleUser } from '@/lib/auth/session';
import { DeviceApproval } from './device-approval';

export const metadata: Metadata = { title: 'Approve a device login' };

export default async function DevicePage({
  searchParams,
}: {
  searchParams: Promise<{ user_code?: string | string[] }>;
}) {
  const { user_code } = await searchParams;
  const code = typeof user_code === 'string' ? user_code.slice(0, 20) : '';
  const user = await requireConsoleUser(code ? `/device?user_code=${encodeURIComponent(code)}` : '/device');
  return (
    <main className="flex min-h-screen items-start justify-center px-4 py-16 sm:py-24">
      <div className="w-full max-w-md">
        <BrandHeading title="Device login" className="mb-6 text-center">
          Signed in as <span className="font-medium text-slate-900">{user.name}</span> ({user.email})
        </BrandHeading>
        <DeviceApproval initialCode={code} />
      </div>
    </main>
  );
}
