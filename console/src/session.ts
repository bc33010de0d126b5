import type { Credentials } from './api';

/**
 * The operator's credentials for this tab: sessionStorage keeps them across a reload and forgets
 * them when the tab closes; nothing else (no cookie, no localStorage) ever holds them.
 */
const KEY = 'regpay-console-credentials';

export function savedCredentials(): Credentials | undefined {
  try {
    const value: unknown = JSON.parse(sessionStorage.getItem(KEY) ?? 'null');
    if (typeof value !== 'object' || value === null) return undefined;
    const { username, password } = value as Record<string, unknown>;
    return typeof username === 'string' && typeof password === 'string' ? { username, password } : undefined;
  } catch {
    return undefined;
  }
}

export function saveCredentials(credentials: Credentials): void {
  sessionStorage.setItem(KEY, JSON.stringify(credentials));
}

export function forgetCredentials(): void {
  sessionStorage.removeItem(KEY);
}
