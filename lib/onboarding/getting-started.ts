// Shared by the overview's panel (a 'use client' module) and its first render on the server, which reads the steps
// only for those the panel is for.
import type { Permission } from '../permissions';

/** The guided start is for an organization's admins: those who may take every step it offers. */
export const GETTING_STARTED_NEEDS: readonly Permission[] = [
  'projects.create',
  'projects.update',
  'members.invite',
  'bots.create',
  'bots.createApiKey',
  'queues.queues.create',
];
