import { createContext } from 'preact';
import { useCallback, useContext, useEffect, useRef, useState } from 'preact/hooks';
import type { RequestOptions } from './api';

/** The signed-in operator's admin API: a 401 signs out (app.tsx), every other failure is thrown. */
export type Api = <T>(path: string, options?: RequestOptions) => Promise<T>;

export const ApiContext = createContext<Api | undefined>(undefined);

export function useApi(): Api {
  const api = useContext(ApiContext);
  if (api === undefined) throw new Error('useApi outside a signed-in console');
  return api;
}

/** How often live views ask again. */
export const POLL_INTERVAL_MS = 2_000;

export interface Polled<T> {
  readonly data: T | undefined;
  readonly error: Error | undefined;
  readonly updatedAt: Date | undefined;
  /** Ask again now (after an action changed what the view shows). */
  readonly refresh: () => void;
}

/**
 * `load` now, then again `intervalMs` after each answer while `live`; again from scratch whenever
 * `key` changes. One request at a time: the next is timed from the end of the last, so a slow
 * service is never asked faster than it answers, and an answer for an older key is dropped.
 */
export function usePoll<T>(load: () => Promise<T>, key: string, options: { readonly live?: boolean; readonly intervalMs?: number } = {}): Polled<T> {
  const live = options.live ?? true;
  const intervalMs = options.intervalMs ?? POLL_INTERVAL_MS;
  const [state, setState] = useState<{ key: string; data?: T; error?: Error; updatedAt?: Date }>({ key });
  const [tick, setTick] = useState(0);
  const loadRef = useRef(load);
  loadRef.current = load;

  useEffect(() => {
    let stopped = false;
    let timer: number | undefined;
    const run = async (): Promise<void> => {
      try {
        const data = await loadRef.current();
        if (!stopped) setState({ key, data, updatedAt: new Date() });
      } catch (error) {
        if (!stopped) setState((previous) => ({ ...(previous.key === key ? previous : { key }), error: error instanceof Error ? error : new Error(String(error)) }));
      }
      if (!stopped && live) timer = window.setTimeout(() => void run(), intervalMs);
    };
    void run();
    return () => {
      stopped = true;
      window.clearTimeout(timer);
    };
  }, [key, live, intervalMs, tick]);

  const refresh = useCallback(() => setTick((value) => value + 1), []);
  const current = state.key === key ? state : { key };
  return { data: current.data, error: current.error, updatedAt: current.updatedAt, refresh };
}
