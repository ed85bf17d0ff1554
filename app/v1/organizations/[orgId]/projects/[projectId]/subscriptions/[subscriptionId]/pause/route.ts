import { otherMethods } from '@/lib/pipeline/methods';
import { pauseSubscriptionOp } from '@/lib/subscriptions/operations';
import { subscriptionStateRoute } from '@/lib/subscriptions/state-route';

export const POST = subscriptionStateRoute('pause');

export const { GET, PUT, PATCH, DELETE } = otherMethods(pauseSubscriptionOp);
