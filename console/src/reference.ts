import { useEffect, useMemo, useState } from 'preact/hooks';
import type { Api } from './hooks';
import type { ReasonCodes, SchemeList, TransactionStates } from './types';

/**
 * What the service names things by, asked once per page load and shared by every view: the
 * states of each kind (GET /admin/v1/states, from the machines), the reason codes with their
 * texts (GET /admin/v1/reason-codes) and the configured schemes (GET /admin/v1/schemes). A failed answer is asked again by the next view that needs it.
 */
const cache = new Map<string, Promise<unknown>>();

function useOnce<T>(api: Api, path: string): T | undefined {
  const [value, setValue] = useState<T | undefined>();
  useEffect(() => {
    let current = true;
    let loading = cache.get(path) as Promise<T> | undefined;
    if (loading === undefined) {
      loading = api<T>(path);
      cache.set(path, loading);
      loading.catch(() => cache.delete(path));
    }
    loading.then(
      (loaded) => current && setValue(loaded),
      () => undefined,
    );
    return () => {
      current = false;
    };
  }, [api, path]);
  return value;
}

export function useStates(api: Api): TransactionStates | undefined {
  return useOnce<TransactionStates>(api, '/admin/v1/states');
}

/** The configured schemes a transaction can be of: those that carry an operation (not ZA_AC, ZA_RMS). Empty until loaded. */
export function useSchemes(api: Api): readonly string[] {
  const loaded = useOnce<SchemeList>(api, '/admin/v1/schemes');
  return useMemo(() => (loaded?.schemes ?? []).filter((each) => each.operations.length > 0).map((each) => each.scheme), [loaded]);
}

/** The text of each reason code, by code (empty until loaded). */
export function useReasonTexts(api: Api): ReadonlyMap<string, string> {
  const loaded = useOnce<ReasonCodes>(api, '/admin/v1/reason-codes');
  return useMemo(() => new Map((loaded?.reasonCodes ?? []).map((reason) => [reason.code, reason.text])), [loaded]);
}
