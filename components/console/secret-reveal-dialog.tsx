'use client';

import { whenOpened } from '@/components/ui/opened-once';

/**
 * Shows a secret exactly once (./secret-reveal.tsx); nothing of it loads until a secret is there to show.
 */
export const SecretRevealDialog = whenOpened(
  () => import('./secret-reveal'),
  (m) => m.SecretReveal,
  (props) => props.secret !== null,
);
