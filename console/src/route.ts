import { useEffect, useState } from 'preact/hooks';

/**
 * The console's pages live in the URL's fragment (`#/transactions/<id>`, `#/transactions?state=…`),
 * so every page, filters included, can be reloaded and shared, and the service serves one file.
 */
export type Route =
  | { readonly view: 'transactions'; readonly filters: URLSearchParams }
  | { readonly view: 'transaction'; readonly id: string }
  | { readonly view: 'waiting'; readonly filters: URLSearchParams }
  | { readonly view: 'undelivered' }
  | { readonly view: 'health' }
  | { readonly view: 'simulator' }
  | { readonly view: 'inbox' };

export function parseRoute(hash: string): Route {
  const [path = '', search = ''] = hash.replace(/^#/, '').split('?', 2);
  const parts = path.split('/').filter((part) => part !== '');
  const [first, second] = parts;
  if (first === 'transactions' && second !== undefined) return { view: 'transaction', id: decodeURIComponent(second) };
  if (first === 'waiting') return { view: 'waiting', filters: new URLSearchParams(search) };
  if (first === 'undelivered' || first === 'health' || first === 'simulator' || first === 'inbox') return { view: first };
  return { view: 'transactions', filters: new URLSearchParams(search) };
}

export function transactionHref(id: string): string {
  return `#/transactions/${encodeURIComponent(id)}`;
}

export function transactionsHref(filters: URLSearchParams): string {
  const text = filters.toString();
  return text === '' ? '#/transactions' : `#/transactions?${text}`;
}

export function waitingHref(filters: URLSearchParams): string {
  const text = filters.toString();
  return text === '' ? '#/waiting' : `#/waiting?${text}`;
}

export function useRoute(): Route {
  const [route, setRoute] = useState(() => parseRoute(location.hash));
  useEffect(() => {
    const onChange = (): void => setRoute(parseRoute(location.hash));
    addEventListener('hashchange', onChange);
    return () => removeEventListener('hashchange', onChange);
  }, []);
  return route;
}
