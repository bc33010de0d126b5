import { useCallback, useEffect, useState } from 'preact/hooks';
import { adminRequest, ApiFailure, type Credentials, type RequestOptions } from './api';
import { ApiContext, useApi, type Api } from './hooks';
import { useRoute, type Route } from './route';
import { forgetCredentials, saveCredentials, savedCredentials } from './session';
import { HealthView } from './views/health';
import { InboxView } from './views/inbox';
import { SimulatorView } from './views/simulator';
import { TransactionView } from './views/transaction';
import { TransactionsView } from './views/transactions';
import { UndeliveredView } from './views/undelivered';
import { WaitingView } from './views/waiting';

/**
 * The console: a sign-in form until the operator's credentials are known, then the views. Every
 * request carries the credentials; a 401 (a changed password, a restarted demo's new one) forgets
 * them and comes back to the sign-in form with the API's message.
 */
export function App() {
  const [credentials, setCredentials] = useState<Credentials | undefined>(savedCredentials);
  const [notice, setNotice] = useState<string | undefined>();

  const signOut = useCallback((message?: string) => {
    forgetCredentials();
    setCredentials(undefined);
    setNotice(message);
  }, []);

  const api = useCallback<Api>(
    async <T,>(path: string, options?: RequestOptions): Promise<T> => {
      if (credentials === undefined) throw new ApiFailure(401, 'Not signed in');
      try {
        return await adminRequest<T>(credentials, path, options);
      } catch (error) {
        if (error instanceof ApiFailure && error.status === 401) signOut(`Signed out: ${error.describe()}`);
        throw error;
      }
    },
    [credentials, signOut],
  );

  if (credentials === undefined) {
    return (
      <SignIn
        notice={notice}
        onSignedIn={(signedIn) => {
          saveCredentials(signedIn);
          setNotice(undefined);
          setCredentials(signedIn);
        }}
      />
    );
  }
  return (
    <ApiContext.Provider value={api}>
      <Console username={credentials.username} onSignOut={() => signOut('Signed out.')} />
    </ApiContext.Provider>
  );
}

function SignIn({ notice, onSignedIn }: { readonly notice: string | undefined; readonly onSignedIn: (credentials: Credentials) => void }) {
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);

  const submit = async (event: Event): Promise<void> => {
    event.preventDefault();
    setBusy(true);
    const credentials = { username, password };
    try {
      await adminRequest(credentials, '/admin/v1/transactions?limit=1');
      onSignedIn(credentials);
    } catch (failure) {
      setError(signInError(failure));
      setBusy(false);
    }
  };

  return (
    <main class="sign-in">
      <h1>regpay console</h1>
      <p class="muted">Sign in with the operator credentials of the configuration's admin section (the demo prints them at start).</p>
      {notice === undefined || error !== undefined ? null : (
        <p class="notice" role="status">
          {notice}
        </p>
      )}
      <form onSubmit={(event) => void submit(event)} aria-label="Sign in">
        <label>
          Username
          <input name="username" autocomplete="username" required value={username} onInput={(event) => setUsername(event.currentTarget.value)} />
        </label>
        <label>
          Password
          <input name="password" type="password" autocomplete="current-password" required value={password} onInput={(event) => setPassword(event.currentTarget.value)} />
        </label>
        {error === undefined ? null : (
          <p class="error" role="alert">
            {error}
          </p>
        )}
        <button type="submit" disabled={busy}>
          {busy ? 'Signing in…' : 'Sign in'}
        </button>
      </form>
    </main>
  );
}

function signInError(failure: unknown): string {
  if (!(failure instanceof ApiFailure)) return String(failure);
  if (failure.status === 401) return `Sign-in refused: ${failure.describe()}`;
  if (failure.status === 429) return `Too many failed sign-ins from this address. Try again in ${failure.retryAfterS ?? 'a few'} s.`;
  return failure.describe();
}

/** Optional views appear when the service offers them: the demo inbox (demo only) and the simulator (when a scheme uses it). */
function useOffered(api: Api, path: string): boolean {
  const [offered, setOffered] = useState(false);
  useEffect(() => {
    let current = true;
    api(path).then(
      () => current && setOffered(true),
      () => current && setOffered(false),
    );
    return () => {
      current = false;
    };
  }, [api, path]);
  return offered;
}

function Console({ username, onSignOut }: { readonly username: string; readonly onSignOut: () => void }) {
  const route = useRoute();
  const api = useApi();
  const inbox = useOffered(api, '/admin/v1/demo-inbox?limit=1');
  const simulator = useOffered(api, '/admin/v1/simulator/test-values');
  const section = route.view === 'transaction' ? 'transactions' : route.view;

  useEffect(() => {
    document.getElementById('page-title')?.focus();
    document.title = `${TITLES[section]} · regpay console`;
  }, [section, route.view === 'transaction' ? route.id : '']);

  const links: [Route['view'], string, boolean][] = [
    ['transactions', '#/transactions', true],
    ['waiting', '#/waiting', true],
    ['undelivered', '#/undelivered', true],
    ['health', '#/health', true],
    ['simulator', '#/simulator', simulator],
    ['inbox', '#/inbox', inbox],
  ];
  return (
    <>
      <a href="#main" class="skip">
        Skip to content
      </a>
      <header class="top">
        <span class="brand">regpay console</span>
        <nav aria-label="Views">
          <ul>
            {links
              .filter(([, , shown]) => shown)
              .map(([view, href]) => (
                <li key={view}>
                  <a href={href} aria-current={section === view ? 'page' : undefined}>
                    {TITLES[view]}
                  </a>
                </li>
              ))}
          </ul>
        </nav>
        <span class="user">
          {username}{' '}
          <button type="button" class="secondary" onClick={onSignOut}>
            Sign out
          </button>
        </span>
      </header>
      <main id="main">
        <View route={route} />
      </main>
    </>
  );
}

const TITLES: Readonly<Record<Route['view'], string>> = {
  transactions: 'Transactions',
  transaction: 'Transaction',
  waiting: 'Waiting',
  undelivered: 'Undelivered',
  health: 'Scheme health',
  simulator: 'Simulator',
  inbox: 'Demo inbox',
};

function View({ route }: { readonly route: Route }) {
  switch (route.view) {
    case 'transactions':
      return <TransactionsView filters={route.filters} />;
    case 'transaction':
      return <TransactionView key={route.id} id={route.id} />;
    case 'waiting':
      return <WaitingView filters={route.filters} />;
    case 'undelivered':
      return <UndeliveredView />;
    case 'health':
      return <HealthView />;
    case 'simulator':
      return <SimulatorView />;
    case 'inbox':
      return <InboxView />;
  }
}
