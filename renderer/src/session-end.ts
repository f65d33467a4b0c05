import type { QueryClient } from '@tanstack/react-query';
import { createContext, useContext } from 'react';
import { asFailure } from './clinic';

/** Why the desk is back at the sign-in form: the person signed out, or the service no longer knows the session. */
export type Ended = { why: 'signed-out' } | { why: 'expired'; username: string };

/**
 * The page forgets everything it read while signed in: the sign-in form replaces the screens at once (App remounts
 * them under a new key, so no component keeps a patient's name in its state) and the query cache is emptied, so
 * nothing of it comes back for the next person at this desk. The session is set to null after the clear: a clear
 * after it would leave the App's observer on the removed query, still showing the desk.
 */
export function forget(qc: QueryClient) {
  void qc.cancelQueries();
  qc.clear();
  qc.setQueryData(['session'], null);
}

/** A signed-in call the service refused as unauthenticated: the session ended (expired, signed out elsewhere). */
export const sessionEnded = (e: unknown) => {
  const f = asFailure(e);
  // A wrong password (signing in, or the current one when changing it) is not the end of a session.
  return f.status === 401 && f.code !== 'INVALID_CREDENTIALS';
};

/** What the screens call to end the session (App's, see there). */
export const EndSession = createContext<(ended: Ended) => void>(() => undefined);
export const useEndSession = () => useContext(EndSession);
