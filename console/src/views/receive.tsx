import { useState } from 'preact/hooks';
import { query } from '../api';
import { ErrorLine } from '../components';
import { kindLabel } from '../format';
import { useApi, usePoll, type Api } from '../hooks';
import { transactionHref, transactionsHref } from '../route';
import type { InboundOrder, InboundStarted, SchemesHealth, TransactionList, TransactionSummary } from '../types';

/**
 * The built-in simulator as the scheme sending an integrator a payment or a request-to-pay
 * (POST /admin/v1/simulator/inbound; docs/simulator.md, inbound scenarios), then the way to the
 * transactions it made: found by UETR through the list API, asked again for a short while, as the
 * service writes a transaction only when the scheme's message reaches it.
 */
type Mode = 'payment' | 'request-to-pay';

const SCENARIOS: Readonly<Record<Mode, readonly { readonly value: string; readonly label: string }[]>> = {
  payment: [
    { value: 'LOOKUP_THEN_CREDIT', label: 'Lookup, then a credit to the account found' },
    { value: 'CREDIT', label: 'A credit, without a lookup' },
    { value: 'CREDIT_DUPLICATE', label: 'A credit sent twice (same message id)' },
    { value: 'CREDIT_CANCELLED', label: 'A credit the scheme cancels after approval' },
  ],
  'request-to-pay': [
    { value: 'REQUEST_TO_PAY', label: 'A request-to-pay' },
    { value: 'REQUEST_TO_PAY_WITHDRAWN', label: 'A request-to-pay, then withdrawn' },
    { value: 'REQUEST_TO_PAY_EXPIRING', label: 'A request-to-pay that expires soon' },
  ],
};

/** The kind the scenario leads to, to open first. */
const MAIN_KIND: Readonly<Record<Mode, string>> = { payment: 'INBOUND_CREDIT_TRANSFER', 'request-to-pay': 'INBOUND_REQUEST_TO_PAY' };

const CUSTOMER_KEYS = [
  { value: 'account', label: 'Account number' },
  { value: 'MOBILE', label: 'Mobile number (proxy)' },
  { value: 'CUSTOM', label: 'Custom proxy' },
] as const;
type CustomerKey = (typeof CUSTOMER_KEYS)[number]['value'];

/** How long the view asks for the transactions of what it started, and how often. */
const FIND_TIMEOUT_MS = 10_000;
const FIND_INTERVAL_MS = 500;

export function ReceiveForms() {
  const api = useApi();
  const [mode, setMode] = useState<Mode>('payment');
  const health = usePoll(() => api<SchemesHealth>('/admin/v1/schemes/health?windowMinutes=1'), 'schemes', { live: false });
  const simulated = (health.data?.schemes ?? []).filter((scheme) => scheme.connector === 'simulator').map((scheme) => scheme.scheme);
  return (
    <section aria-labelledby="receive-title" class="receive">
      <h2 id="receive-title">Receive from the scheme</h2>
      <p class="lead">
        The simulated scheme sends an integrator a payment or a request-to-pay, as another bank's customer would through the scheme. The service asks the
        integrator, answers the scheme and tells the integrator the final word.
      </p>
      <div class="switches" role="group" aria-label="What the scheme sends">
        <button type="button" aria-pressed={mode === 'payment'} onClick={() => setMode('payment')}>
          Receive a payment
        </button>
        <button type="button" aria-pressed={mode === 'request-to-pay'} onClick={() => setMode('request-to-pay')}>
          Receive a request-to-pay
        </button>
      </div>
      <ReceiveForm key={mode} mode={mode} schemes={simulated.length > 0 ? simulated : ['ZA_RPP']} />
    </section>
  );
}

function ReceiveForm({ mode, schemes }: { readonly mode: Mode; readonly schemes: readonly string[] }) {
  const api = useApi();
  const scenarios = SCENARIOS[mode];
  const [values, setValues] = useState({
    integratorId: '',
    scheme: schemes.includes('ZA_RPP') ? 'ZA_RPP' : (schemes[0] ?? 'ZA_RPP'),
    scenario: scenarios[0]?.value ?? '',
    customerKey: 'account' as CustomerKey,
    customer: '',
    amount: '',
    customerName: '',
    payerName: '',
  });
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<Error | undefined>();
  const [result, setResult] = useState<{ started: InboundStarted; found: readonly TransactionSummary[] } | undefined>();
  const set = (name: keyof typeof values) => (event: Event) => setValues({ ...values, [name]: (event.currentTarget as HTMLInputElement | HTMLSelectElement).value });

  const submit = async (event: Event): Promise<void> => {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    setResult(undefined);
    try {
      const started = await api<InboundStarted>('/admin/v1/simulator/inbound', { method: 'POST', body: orderOf(values) });
      setResult({ started, found: [] });
      setResult({ started, found: await transactionsOf(api, started.uetr, MAIN_KIND[mode]) });
    } catch (failure) {
      setError(failure as Error);
    } finally {
      setBusy(false);
    }
  };

  return (
    <form class="filters" aria-label={mode === 'payment' ? 'Receive a payment' : 'Receive a request-to-pay'} onSubmit={(event) => void submit(event)}>
      <div class="fields">
        <label>
          Receiving integrator
          <input value={values.integratorId} onInput={set('integratorId')} placeholder="first with the scheme" />
        </label>
        <label>
          Receiving scheme
          <select value={values.scheme} onChange={set('scheme')}>
            {schemes.map((scheme) => (
              <option key={scheme} value={scheme}>
                {scheme}
              </option>
            ))}
          </select>
        </label>
        <label>
          Scenario
          <select value={values.scenario} onChange={set('scenario')}>
            {scenarios.map((scenario) => (
              <option key={scenario.value} value={scenario.value}>
                {scenario.label}
              </option>
            ))}
          </select>
        </label>
        <label>
          Customer by
          <select value={values.customerKey} onChange={set('customerKey')}>
            {CUSTOMER_KEYS.map((key) => (
              <option key={key.value} value={key.value}>
                {key.label}
              </option>
            ))}
          </select>
        </label>
        <label>
          {values.customerKey === 'account' ? 'Account number' : 'Proxy'}
          <input required value={values.customer} onInput={set('customer')} placeholder={values.customerKey === 'MOBILE' ? '+27-821234567' : values.customerKey === 'account' ? '4071000001' : ''} />
        </label>
        <label>
          Amount (ZAR)
          <input required inputMode="decimal" pattern="[0-9]{1,15}(\.[0-9]{1,2})?" value={values.amount} onInput={set('amount')} placeholder="150.25" />
        </label>
        <label>
          {mode === 'payment' ? 'Payee name (optional)' : 'Debtor name (optional)'}
          <input value={values.customerName} onInput={set('customerName')} placeholder="the integrator's customer" />
        </label>
        {mode === 'payment' ? (
          <label>
            Payer name (optional)
            <input value={values.payerName} onInput={set('payerName')} placeholder="the simulator's payer" />
          </label>
        ) : null}
      </div>
      <div class="actions">
        <button type="submit" disabled={busy}>
          {busy ? 'Sending…' : mode === 'payment' ? 'Send the payment' : 'Send the request-to-pay'}
        </button>
      </div>
      <ErrorLine error={error} />
      {result === undefined ? null : <Started started={result.started} found={result.found} searching={busy} />}
    </form>
  );
}

function orderOf(values: { integratorId: string; scheme: string; scenario: string; customerKey: CustomerKey; customer: string; amount: string; customerName: string; payerName: string }): InboundOrder {
  const customer = values.customer.trim();
  return {
    ...(values.integratorId.trim() === '' ? {} : { integratorId: values.integratorId.trim() }),
    scheme: values.scheme,
    scenario: values.scenario,
    ...(values.customerKey === 'account' ? { accountNumber: customer } : { proxy: { value: customer, schema: values.customerKey } }),
    amount: values.amount.trim(),
    ...(values.customerName.trim() === '' ? {} : { customerName: values.customerName.trim() }),
    ...(values.scenario.startsWith('REQUEST_TO_PAY') || values.payerName.trim() === '' ? {} : { payerName: values.payerName.trim() }),
  };
}

/**
 * The inbound transactions of a UETR, the main kind first, once that one is listed or the time is
 * up: a lookup comes before its credit, and each appears only when its message reaches the service.
 */
async function transactionsOf(api: Api, uetr: string, mainKind: string): Promise<readonly TransactionSummary[]> {
  const deadline = Date.now() + FIND_TIMEOUT_MS;
  for (;;) {
    const { transactions } = await api<TransactionList>(`/admin/v1/transactions${query({ uetr, direction: 'INBOUND' })}`);
    if (transactions.some((row) => row.kind === mainKind) || Date.now() >= deadline) {
      return [...transactions].sort((a, b) => Number(b.kind === mainKind) - Number(a.kind === mainKind));
    }
    await new Promise((resolve) => setTimeout(resolve, FIND_INTERVAL_MS));
  }
}

function Started({ started, found, searching }: { readonly started: InboundStarted; readonly found: readonly TransactionSummary[]; readonly searching: boolean }) {
  return (
    <div class="notice" role="status">
      <p>
        The simulated {started.scheme} scheme sent {started.integratorId} scenario {started.scenario}, UETR <span class="mono">{started.uetr}</span>.{' '}
        {searching ? 'Looking for its transactions…' : found.length === 0 ? 'No transaction has appeared for it yet: ' : null}
        {!searching && found.length === 0 ? <a href={transactionsHref(new URLSearchParams({ uetr: started.uetr }))}>find it by its UETR</a> : null}
      </p>
      {found.length === 0 ? null : (
        <ul>
          {found.map((row) => (
            <li key={row.id}>
              <a href={transactionHref(row.id)}>Open the {kindLabel(row.kind)}</a> <span class="muted small">({row.state})</span>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
