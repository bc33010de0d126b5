import { useState } from 'preact/hooks';
import { Choice, ErrorLine, Folded } from '../components';
import { useApi, usePoll } from '../hooks';
import { transactionHref } from '../route';
import type { SampleSent, TestValue } from '../types';
import { ReceiveForms } from './receive';

/**
 * The built-in simulator: the forms that have it send an integrator a payment or a
 * request-to-pay as the scheme (receive.tsx), and its test values (docs/simulator.md): what each
 * makes the simulated scheme do, and a button that sends a sample request using it through the
 * integrator API (POST /admin/v1/simulator/samples), leading to the transaction it created.
 */
export function SimulatorView() {
  const api = useApi();
  const values = usePoll(() => api<{ testValues: readonly TestValue[] }>('/admin/v1/simulator/test-values'), 'test-values', { live: false });
  const [integratorId, setIntegratorId] = useState('');
  const [scheme, setScheme] = useState('');
  const [kind, setKind] = useState('');
  const all = values.data?.testValues ?? [];
  const shown = all.filter((value) => (scheme === '' || value.scheme === scheme) && (kind === '' || value.kind === kind));
  const [sent, setSent] = useState<{ value: TestValue; answer: SampleSent } | undefined>();
  const [busy, setBusy] = useState<string | undefined>();
  const [error, setError] = useState<Error | undefined>();

  const send = async (value: TestValue): Promise<void> => {
    setBusy(value.id);
    try {
      const answer = await api<SampleSent>('/admin/v1/simulator/samples', {
        method: 'POST',
        body: { testValueId: value.id, ...(integratorId.trim() === '' ? {} : { integratorId: integratorId.trim() }) },
      });
      setSent({ value, answer });
      setError(undefined);
    } catch (failure) {
      setError(failure as Error);
    } finally {
      setBusy(undefined);
    }
  };

  return (
    <section aria-labelledby="page-title">
      <h1 id="page-title" tabIndex={-1}>
        Simulator
      </h1>
      <ReceiveForms />
      <h2>Test values</h2>
      <p class="lead">
        Each value makes the built-in simulated scheme answer one way. <strong>Send sample</strong> submits a request using it through the integrator API, as
        an integrator would, and shows the answer.
      </p>
      <form class="filters" aria-label="Sample options" onSubmit={(event) => event.preventDefault()}>
        <div class="fields">
          <Choice label="Scheme" anyLabel="all" value={scheme} options={[...new Set(all.map((value) => value.scheme))]} onChange={setScheme} />
          <Choice label="Kind" anyLabel="all" value={kind} options={[...new Set(all.map((value) => value.kind))]} onChange={setKind} />
          <label>
            Send as integrator (optional)
            <input value={integratorId} onInput={(event) => setIntegratorId(event.currentTarget.value)} placeholder="first with the scheme" />
          </label>
        </div>
      </form>
      <ErrorLine error={error} />
      {sent === undefined ? null : <SampleResult value={sent.value} answer={sent.answer} />}
      <ErrorLine error={values.error} />
      {values.data === undefined ? null : (
        <table class="test-values">
          <caption class="visually-hidden">Test values</caption>
          <thead>
            <tr>
              <th scope="col">Scheme</th>
              <th scope="col">Kind</th>
              <th scope="col">Test value</th>
              <th scope="col">Value in the request</th>
              <th scope="col">What the simulator does</th>
              <th scope="col">Expected</th>
              <th scope="col">Action</th>
            </tr>
          </thead>
          <tbody>
            {shown.map((value) => (
              <tr key={value.id}>
                <td>{value.scheme}</td>
                <td class="small">{value.kind}</td>
                <td>{value.label}</td>
                <td class="mono small">{value.value}</td>
                <td class="small">{value.description}</td>
                <td>{value.expected}</td>
                <td>
                  <button type="button" class="nowrap" disabled={busy !== undefined} aria-label={`Send sample: ${value.scheme} ${value.kind} ${value.label}`} onClick={() => void send(value)}>
                    {busy === value.id ? 'Sending…' : 'Send sample'}
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

function SampleResult({ value, answer }: { readonly value: TestValue; readonly answer: SampleSent }) {
  return (
    <div class="notice" role="status">
      <p>
        Sample <strong>{value.label}</strong> ({value.scheme}, {value.kind}) sent as {answer.integratorId}: the integrator API answered HTTP {answer.status}.{' '}
        {answer.transactionId === null ? 'No transaction was created.' : <a href={transactionHref(answer.transactionId)}>Open the transaction</a>}
      </p>
      <Folded summary="The answer's body" value={answer.body} />
    </div>
  );
}
