import { useState } from 'preact/hooks';
import { query } from '../api';
import { ErrorLine, LiveToggle, StatusBadge } from '../components';
import { formatTime, formatTimeUtc, utcFromInput } from '../format';
import { useApi, usePoll } from '../hooks';
import { transactionHref } from '../route';
import type { DeliveryList, DeliverySummary } from '../types';

/**
 * Callbacks and events the integrators did not acknowledge within their retry schedule
 * (UNDELIVERED), or still being retried (PENDING), oldest first, with a replay of one message or
 * of every undelivered message of an integrator (POST /admin/v1/deliveries/replay).
 */
const PAGE_SIZE = 100;

interface ReplayResult {
  readonly replayed: number;
}

export function UndeliveredView() {
  const api = useApi();
  const [status, setStatus] = useState<'UNDELIVERED' | 'PENDING'>('UNDELIVERED');
  const [integratorId, setIntegratorId] = useState('');
  const [live, setLive] = useState(true);
  const [result, setResult] = useState<string | undefined>();
  const [actionError, setActionError] = useState<Error | undefined>();
  const polled = usePoll(() => api<DeliveryList>(`/admin/v1/deliveries${query({ status, integratorId: integratorId.trim(), limit: PAGE_SIZE })}`), `${status} ${integratorId.trim()}`, { live });
  const deliveries = polled.data?.deliveries ?? [];

  const [since, setSince] = useState('');
  const [busy, setBusy] = useState(false);

  const replayAll = async (event: Event): Promise<void> => {
    event.preventDefault();
    setBusy(true);
    const integrator = integratorId.trim();
    const from = utcFromInput(since);
    try {
      const result = await api<ReplayResult>('/admin/v1/deliveries/replay', { method: 'POST', body: { integratorId: integrator, ...(from === undefined ? {} : { since: from }) } });
      replayed(result.replayed, `of ${integrator}${from === undefined ? '' : ` written since ${formatTimeUtc(from)}`}`);
    } catch (error) {
      setActionError(error as Error);
    } finally {
      setBusy(false);
    }
  };

  const replayed = (count: number, what: string): void => {
    setResult(`Replayed ${count} message${count === 1 ? '' : 's'} ${what}: ${count === 0 ? 'nothing was undelivered' : 'they are being delivered again'}.`);
    setActionError(undefined);
    polled.refresh();
  };

  return (
    <section aria-labelledby="page-title">
      <h1 id="page-title" tabIndex={-1}>
        Undelivered callbacks and events
      </h1>
      <p class="lead">
        A message lands here when its integrator did not acknowledge it before its retry schedule ran out. Fix the integrator's endpoint, then replay: a
        replayed message gets a fresh retry schedule.
      </p>
      <form class="filters" aria-label="Choose and replay deliveries" onSubmit={(event) => void replayAll(event)}>
        <div class="fields">
          <label>
            Status
            <select value={status} onChange={(event) => setStatus(event.currentTarget.value as 'UNDELIVERED' | 'PENDING')}>
              <option value="UNDELIVERED">UNDELIVERED (retries used up)</option>
              <option value="PENDING">PENDING (still being retried)</option>
            </select>
          </label>
          <label>
            Integrator
            <input list="delivery-integrators" value={integratorId} onInput={(event) => setIntegratorId(event.currentTarget.value)} placeholder="any" />
            <datalist id="delivery-integrators">
              {[...new Set(deliveries.map((delivery) => delivery.integratorId))].map((id) => (
                <option key={id} value={id} />
              ))}
            </datalist>
          </label>
          <label>
            Replay only those written since (UTC, optional)
            <input type="datetime-local" step={1} value={since} onInput={(event) => setSince(event.currentTarget.value)} />
          </label>
        </div>
        <div class="actions">
          <button type="submit" disabled={busy || integratorId.trim() === ''}>
            Replay all undelivered {integratorId.trim() === '' ? 'for an integrator (choose it above)' : `for ${integratorId.trim()}`}
          </button>
        </div>
      </form>
      {result === undefined ? null : (
        <p class="notice" role="status">
          {result}
        </p>
      )}
      <ErrorLine error={actionError} />
      <LiveToggle live={live} onChange={setLive} updatedAt={polled.updatedAt} />
      <ErrorLine error={polled.error} />
      {polled.data === undefined ? null : deliveries.length === 0 ? (
        <p class="empty">No {status === 'UNDELIVERED' ? 'undelivered' : 'pending'} message.</p>
      ) : (
        <DeliveryTable deliveries={deliveries} onReplayed={(count) => replayed(count, 'by id')} />
      )}
      {polled.data?.nextCursor == null ? null : <p class="muted">Showing the oldest {PAGE_SIZE}; replay them to see the next.</p>}
    </section>
  );
}

function DeliveryTable({ deliveries, onReplayed }: { readonly deliveries: readonly DeliverySummary[]; readonly onReplayed: (count: number) => void }) {
  return (
    <table class="deliveries">
      <caption class="visually-hidden">Deliveries, oldest first</caption>
      <thead>
        <tr>
          <th scope="col">Written (UTC)</th>
          <th scope="col">Integrator</th>
          <th scope="col">Channel</th>
          <th scope="col">URL</th>
          <th scope="col" class="number">
            Attempts
          </th>
          <th scope="col">Last error</th>
          <th scope="col">Transaction</th>
          <th scope="col">Action</th>
        </tr>
      </thead>
      <tbody>
        {deliveries.map((delivery) => (
          <tr key={delivery.id}>
            <td class="time">{formatTime(delivery.createdAt)}</td>
            <td>{delivery.integratorId}</td>
            <td>{delivery.channel}</td>
            <td class="mono small">{delivery.url}</td>
            <td class="number">{delivery.attempts}</td>
            <td class="small">{delivery.lastError ?? '—'}</td>
            <td>
              <a href={transactionHref(delivery.transactionId)}>Open</a>
            </td>
            <td>{delivery.status === 'UNDELIVERED' ? <ReplayButton outboxId={delivery.id} onReplayed={onReplayed} /> : <StatusBadge text={delivery.status} />}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** Replays one message by its id. */
export function ReplayButton({ outboxId, onReplayed }: { readonly outboxId: string; readonly onReplayed: (count: number) => void }) {
  const api = useApi();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<Error | undefined>();
  const replay = async (): Promise<void> => {
    setBusy(true);
    try {
      const result = await api<ReplayResult>('/admin/v1/deliveries/replay', { method: 'POST', body: { outboxId } });
      setError(undefined);
      onReplayed(result.replayed);
    } catch (failure) {
      setError(failure as Error);
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <button type="button" disabled={busy} onClick={() => void replay()}>
        Replay
      </button>
      <ErrorLine error={error} />
    </>
  );
}
