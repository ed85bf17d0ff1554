'use client';

import { createContext, useContext, type ReactNode } from 'react';

// Whether this server admits loopback targets (WEBHOOK_ALLOW_LOOPBACK), read by the console's layout on the server:
// the browser has no settings of its own, and a hint that says less than the server admits is false.
const LoopbackTargets = createContext(false);

export function DeliveryTargetsProvider({ loopback, children }: { loopback: boolean; children: ReactNode }) {
  return <LoopbackTargets.Provider value={loopback}>{children}</LoopbackTargets.Provider>;
}

/** Whether this server admits loopback targets, so a form's own check of a target URL may admit them too. */
export const useLoopbackTargets = () => useContext(LoopbackTargets);

/** What a delivery target URL (a subscription's, a webhook's) may be on this server, as a field's hint says it. */
export function useTargetHint(): string {
  return useLoopbackTargets()
    ? 'An https:// address on the public internet, or (this server admits loopback targets) an http:// or https:// one on 127.0.0.1 or [::1]'
    : 'An https:// address on the public internet';
}

/** The scheme a target URL is sent over, as written: HTTP where the loopback switch admitted http://. */
export const targetScheme = (url: string) => (/^http:/i.test(url) ? 'HTTP' : 'HTTPS');
