// Shared by the console's lists (lib/console/paged-list.ts) and the server's first render of them
// (lib/console/server-prefetch.ts), which cannot import values from a 'use client' module.

/** The page the console asks for, unless a list says otherwise (pickers read `PICKER`, lib/orgs/keys.ts). */
export const PAGE_SIZE = 50;
