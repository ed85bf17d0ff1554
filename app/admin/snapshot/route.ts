import { snapshotRequest } from '@/lib/backup/service';

export const dynamic = 'force-dynamic';

export const POST = snapshotRequest;
