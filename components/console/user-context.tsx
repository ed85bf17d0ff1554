'use client';

import { createContext, useContext, type ReactNode } from 'react';

export type ConsoleUser = { id: string; name: string; email: string };

const UserContext = createContext<ConsoleUser | null>(null);

export function UserProvider({ user, children }: { user: ConsoleUser; children: ReactNode }) {
  return <UserContext.Provider value={user}>{children}</UserContext.Provider>;
}

/** The signed-in user of the console. */
export function useConsoleUser(): ConsoleUser {
  const user = useContext(UserContext);
  if (!user) throw new Error('useConsoleUser outside the console layout');
  return user;
}
