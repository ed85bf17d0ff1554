import { NotFoundPanel } from '@/components/console/not-found-panel';

/** An unknown page inside an organization keeps the console's frame, with a way back to its home. */
export default function OrganizationNotFound() {
  return <NotFoundPanel backLabel="Back to the overview" />;
}
