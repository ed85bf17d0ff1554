import { subscriptionStateRoute } from '@/lib/subscriptions/state-route';

export const POST = subscriptionStateRoute('pause');
