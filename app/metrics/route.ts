import { scrape } from '@/lib/observability/scrape';

export const dynamic = 'force-dynamic';

export const GET = scrape;
