import { useState } from 'preact/hooks';
import { ApiFailure } from '../api';
import { Code, ErrorLine, Folded, LiveToggle, StatusBadge } from '../components';
import { formatAmount, formatTime, prettyXml } from '../format';
import { useApi, usePoll } from '../hooks';
import type { DeliveryAttempt, SchemeMessage, TransactionDelivery, TransactionDetail } from '../types';
import { ReplayButton } from './undelivered';

/**
 * One transaction and everything that happened to it, as GET /admin/v1/transactions/{id} tells
 * it: the states it entered and why, each callback and event with every attempt to deliver it,
 * the scheme messages sent and received, and the integrator's request. Refreshed live, so a
 * transaction still being processed can be watched.
 */
export function TransactionView({ id }: { readonly id: string }) {
  const api = useApi();
  const [live, setLive] = useState(true);
  const polled = usePoll(() => api<TransactionDetail>(`/admin/v1/transactions/${encodeURIComponent(id)}`), id, { live });
  const transaction = polled.data;
  const notFound = polled.error instanceof ApiFailure && polled.error.status === 404;

  return (
    <section aria-labelledby="page-title">
      <p>
        <a href="#/transactions">← All transactions</a>
      </p>
      <h1 id="page-title" tabIndex={-1}>
        Transaction <span class="mono">{transaction?.uetr ?? id}</span>
      </h1>
      {notFound ? <p role="alert">No transaction has the id {id}.</p> : <ErrorLine error={polled.error} />}
      {transaction === undefined ? null : (
        <>
          <LiveToggle live={live} onChange={setLive} updatedAt={polled.updatedAt} />
          <Summary transaction={transaction} />
          <States transaction={transaction} />
          <SchemeMessages messages={transaction.schemeMessages} />
          <Deliveries deliveries={transaction.deliveries} onReplayed={polled.refresh} />
          <h2>Original request</h2>
          <Folded summary="The request as the integrator sent it" value={transaction.request} />
        </>
      )}
    </section>
  );
}

function Summary({ transaction }: { readonly transaction: TransactionDetail }) {
  const rows: [string, preact.ComponentChildren][] = [
    ['State', <Code text={transaction.state} />],
    [
      'Outcome',
      <>
        <StatusBadge text={transaction.outcome} /> {transaction.reasonCode === null ? null : <span class="mono">reason {transaction.reasonCode}</span>}
      </>,
    ],
    ['Kind', transaction.kind],
    ['Scheme', transaction.scheme],
    ['Integrator', transaction.integratorId],
    ['Amount', <span class="mono">{formatAmount(transaction.amount)}</span>],
    ['UETR', <span class="mono">{transaction.uetr}</span>],
    ['Message id', <span class="mono">{transaction.messageId}</span>],
    ['End-to-end id', <span class="mono">{transaction.endToEndId ?? '—'}</span>],
    ['Created (UTC)', formatTime(transaction.createdAt)],
    ['Updated (UTC)', formatTime(transaction.updatedAt)],
    ['Next timer (UTC)', formatTime(transaction.dueAt)],
    ['Trace', <span class="mono small">{transaction.traceparent ?? '—'}</span>],
    ['Internal id', <span class="mono small">{transaction.id}</span>],
  ];
  return (
    <dl class="summary">
      {rows.map(([term, value]) => (
        <div key={term}>
          <dt>{term}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}

function States({ transaction }: { readonly transaction: TransactionDetail }) {
  return (
    <>
      <h2>States</h2>
      <table class="timeline">
        <caption class="visually-hidden">States entered, in order</caption>
        <thead>
          <tr>
            <th scope="col">At (UTC)</th>
            <th scope="col">State entered</th>
            <th scope="col">Cause</th>
          </tr>
        </thead>
        <tbody>
          {transaction.history.map((entry) => (
            <tr key={entry.version}>
              <td class="time">{formatTime(entry.at)}</td>
              <td>
                <Code text={entry.toState} />
                {entry.fromState === null ? null : (
                  <div class="muted small">
                    from <Code text={entry.fromState} />
                  </div>
                )}
              </td>
              <td>
                {entry.cause !== null ? (
                  <Folded summary={causeSummary(entry.cause)} value={entry.cause} />
                ) : entry.version === 1 ? (
                  <span class="muted">the integrator's request</span>
                ) : (
                  <span class="muted">follows from the state before</span>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}

/** A one-line name for a cause: its `type` (and status or reason) when it has them. */
function causeSummary(cause: unknown): string {
  if (typeof cause !== 'object' || cause === null) return String(cause);
  const record = cause as Record<string, unknown>;
  const parts = ['type', 'kind', 'answer', 'status', 'reasonCode'].map((name) => record[name]).filter((value) => typeof value === 'string');
  return parts.length > 0 ? parts.join(' · ') : 'details';
}

function Deliveries({ deliveries, onReplayed }: { readonly deliveries: readonly TransactionDelivery[]; readonly onReplayed: () => void }) {
  return (
    <>
      <h2>Callbacks and events</h2>
      {deliveries.length === 0 ? (
        <p class="empty">None written yet.</p>
      ) : (
        <div class="table-wrap">
          <table class="deliveries">
            <caption class="visually-hidden">Callbacks and events, in the order written, with every delivery attempt</caption>
            <thead>
              <tr>
                <th scope="col">Written (UTC)</th>
                <th scope="col">Message</th>
                <th scope="col">Status</th>
                <th scope="col">Attempts (UTC)</th>
                <th scope="col">Action</th>
              </tr>
            </thead>
            <tbody>
              {deliveries.map((delivery) => (
                <tr key={delivery.id}>
                  <td class="time">{formatTime(delivery.createdAt)}</td>
                  <td>
                    {delivery.channel === 'callback' ? 'Callback' : 'Event'} <Code text={eventType(delivery)} />
                    <div class="mono small muted">{delivery.url}</div>
                    <Folded summary="Body sent" value={delivery.body} />
                  </td>
                  <td>
                    <StatusBadge text={delivery.status} />
                    {delivery.nextAttemptAt === null ? null : <div class="small muted">next attempt {formatTime(delivery.nextAttemptAt)}</div>}
                  </td>
                  <td>
                    {delivery.attemptHistory.length === 0 ? (
                      <span class="muted">none yet</span>
                    ) : (
                      <ol class="attempts">
                        {delivery.attemptHistory.map((attempt, index) => (
                          <li key={index}>
                            <span class="time">{formatTime(attempt.at)}</span> {attemptResult(attempt)} <span class="muted">({attempt.durationMs} ms)</span>
                          </li>
                        ))}
                      </ol>
                    )}
                  </td>
                  <td>{delivery.status === 'UNDELIVERED' ? <ReplayButton outboxId={delivery.id} onReplayed={onReplayed} /> : null}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </>
  );
}

/** What one attempt came to: acknowledged, the HTTP status the integrator answered, or the error. */
function attemptResult(attempt: DeliveryAttempt): string {
  if (attempt.delivered) return `delivered, HTTP ${attempt.httpStatus ?? '—'}`;
  const status = attempt.httpStatus === null ? '' : `HTTP ${attempt.httpStatus}`;
  return [status, attempt.error ?? ''].filter((part) => part !== '').join(': ') || 'failed';
}

/** The event type or callback name a delivery carries, when its body says. */
function eventType(delivery: TransactionDelivery): string {
  const body = delivery.body as Record<string, unknown> | null;
  const type = typeof body === 'object' && body !== null ? body['type'] ?? body['eventType'] : undefined;
  if (typeof type === 'string') return type;
  return delivery.url.split('/').filter((part) => part !== '').at(-1) ?? '';
}

function SchemeMessages({ messages }: { readonly messages: readonly SchemeMessage[] }) {
  return (
    <>
      <h2>Scheme messages</h2>
      {messages.length === 0 ? <p class="empty">None sent or received yet.</p> : null}
      {messages.map((message, index) => (
        <article key={`${message.messageId}-${index}`} class="scheme-message">
          <details>
            <summary>
              <span class="time">{formatTime(message.at)}</span> {message.direction === 'sent' ? 'Sent' : 'Received'} <strong>{message.messageName}</strong>{' '}
              <span class="mono small">{message.messageId}</span>
            </summary>
            <pre class="xml">{prettyXml(message.document)}</pre>
          </details>
        </article>
      ))}
    </>
  );
}
