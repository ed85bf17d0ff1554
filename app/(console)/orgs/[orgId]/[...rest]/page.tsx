import { notFound } from 'next/navigation';

// Any unknown path inside an organization: its not-found page, inside the console's frame.
export default function UnknownOrganizationPage() {
  notFound();
}
