'use client';

import dynamic from 'next/dynamic';
import { whenOpened } from '@/components/ui/opened-once';

/**
 * Shows a secret exactly once (./secret-reveal.tsx); nothing of it loads until a secret is there to show.
 */
export const SecretRevealDialog = whenOpened(
  dynamic(() => import('./secret-reveal').then((m) => m.SecretReveal), { ssr: false }),
  (props) => props.secret !== null,
);
