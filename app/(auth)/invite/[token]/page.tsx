import type { Metadata } from 'next';
import { getServerSession } from 'next-auth';
import { BrandHeading } from '@/components/ui/brand-heading';
import { authOptions } from '@/lib/auth/next-auth';
import { InvitationView } from './invitation-view';

export const metadata: Metadata = { title: 'Invitation' };

/** An invitation link: join as the signed-in user, or make the account. Outside the console's session gate. */
export default async function InvitePage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  const session = await getServerSession(authOptions);
  // Only a hint for the page's words: the API decides who may accept.
  const signedInAs = session?.user?.email ?? null;
  return (
    <main className="flex min-h-screen items-center justify-center px-4 py-12">
      <div className="w-full max-w-sm">
        <BrandHeading title="You are invited" className="mb-8 text-center">
          Join an organization on the console.
        </BrandHeading>
        <div className="rounded-lg bg-white p-6 shadow-sm ring-1 ring-slate-200">
          <InvitationView token={token} signedInAs={signedInAs} />
        </div>
      </div>
    </main>
  );
}
