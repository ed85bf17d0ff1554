import { otherMethods } from '@/lib/pipeline/methods';
import { resumeSubscriptionOp } from '@/lib/subscriptions/operations';
import { subscriptionStateRoute } from '@/lib/subscriptions/state-route';

export const POST = subscriptionStateRoute('resume');

export const { GET, PUT, PATCH, DELETE } = otherMethods(resumeSubscriptionOp);
