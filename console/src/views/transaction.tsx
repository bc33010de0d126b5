import { useState } from 'preact/hooks';
import { ApiFailure } from '../api';
import { Code, DirectionBadge, ErrorLine, Folded, LiveToggle, ReasonCode, StatusBadge } from '../components';
import { formatAmount, formatDuration, formatTime, formatTimeUtc, inboundStateMeaning, kindLabel, prettyXml } from '../format';
import { useApi, usePoll } from '../hooks';
import { useReasonTexts } from '../reference';
import type { DeliveryAttempt, SchemeMessage, StateEntered, TimeoutCause, TransactionDelivery, TransactionDetail } from '../types';
import { ReplayButton } from './undelivered';

/**
 * One transaction and everything that happened to it, as GET /admin/v1/transactions/{id} tells
 * it: the states it entered and why, each callback and event with every attempt to deliver it,
 * the scheme messages sent and received, and the integrator's request. Refreshed live, so a
 * transaction still being processed can be watched.
 */
export function TransactionView({ id }: { readonly id: string }) {
  const api = useApi();
  const texts = useReasonTexts(api);
  const [live, setLive] = useState(true);
  const polled = usePoll(() => api<TransactionDetail>(`/admin/v1/transactions/${encodeURIComponent(id)}`), id, { live });
  const transaction = polled.data;
  const notFound = polled.error instanceof ApiFailure && polled.error.status === 404;
  const inbound = transaction?.direction === 'INBOUND';

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
          <Summary transaction={transaction} texts={texts} />
          <States transaction={transaction} texts={texts} />
          <SchemeMessages messages={transaction.schemeMessages} inbound={inbound} />
          <Deliveries deliveries={transaction.deliveries} inbound={inbound} onReplayed={polled.refresh} />
          <h2>Original request</h2>
          <Folded summary={inbound ? "The scheme's message as the service read it" : 'The request as the integrator sent it'} value={transaction.request} />
        </>
      )}
    </section>
  );
}

function Summary({ transaction, texts }: { readonly transaction: TransactionDetail; readonly texts: ReadonlyMap<string, string> }) {
  const rows: [string, preact.ComponentChildren][] = [
    ['State', <Code text={transaction.state} />],
    [
      'Outcome',
      <>
        <StatusBadge text={transaction.outcome} />{' '}
        {transaction.reasonCode === null ? null : (
          <>
            reason <ReasonCode code={transaction.reasonCode} texts={texts} />
          </>
        )}
      </>,
    ],
    ['Direction', <DirectionBadge direction={transaction.direction} />],
    [
      'Kind',
      <>
        {kindLabel(transaction.kind)} <span class="muted small mono">{transaction.kind}</span>
      </>,
    ],
    ['Scheme', transaction.scheme],
    [transaction.direction === 'INBOUND' ? 'Integrator (receiving)' : 'Integrator', transaction.integratorId],
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

function States({ transaction, texts }: { readonly transaction: TransactionDetail; readonly texts: ReadonlyMap<string, string> }) {
  const inbound = transaction.direction === 'INBOUND';
  return (
    <>
      <h2>States</h2>
      {inbound ? (
        <p class="muted small">
          Received from the scheme: the service calls the integrator (its answer, or the call's failure, is the cause of the state it leads to), answers the
          scheme, and tells the integrator the scheme's final word with a callback.
        </p>
      ) : null}
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
                {inbound && inboundStateMeaning(entry.toState) !== undefined ? <div class="small">{inboundStateMeaning(entry.toState)}</div> : null}
                {entry.fromState === null ? null : (
                  <div class="muted small">
                    from <Code text={entry.fromState} />
                  </div>
                )}
              </td>
              <td>
                {entry.timeout === undefined ? null : <TimeoutLine timeout={entry.timeout} />}
                {entry.cause !== null ? (
                  <Folded summary={<CauseSummary entry={entry} inbound={inbound} texts={texts} />} value={entry.cause} />
                ) : entry.timeout !== undefined ? null : entry.version === 1 ? (
                  <span class="muted">{inbound ? "the scheme's message" : "the integrator's request"}</span>
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

/** Which time budget ran out, how long it was and when: the cause of a *_TIMEOUT state. */
function TimeoutLine({ timeout }: { readonly timeout: TimeoutCause }) {
  const length = timeout.budgetMs === null ? '' : ` of ${formatDuration(timeout.budgetMs)}`;
  const when = timeout.ranOutAt === null ? '' : ` at ${formatTimeUtc(timeout.ranOutAt)}`;
  return (
    <div class="timeout-cause">
      <strong>Timed out:</strong> {timeout.budget}
      {length} ran out{when}, counted from {timeout.countedFrom}. <span class="muted small">Set by {timeout.setting}.</span>
    </div>
  );
}

/** A cause's summary line, with the text of the reason code it names beside the code. */
function CauseSummary({ entry, inbound, texts }: { readonly entry: StateEntered; readonly inbound: boolean; readonly texts: ReadonlyMap<string, string> }) {
  const summary = inbound ? inboundCauseSummary(entry.toState, entry.cause) : causeSummary(entry.cause);
  const code = reasonCodeOf(entry.cause);
  const text = code === undefined ? undefined : texts.get(code);
  return (
    <>
      {summary}
      {text === undefined ? null : <span class="reason-text"> ({text})</span>}
    </>
  );
}

/** The reason code a cause names, at its top or in its status. */
function reasonCodeOf(cause: unknown): string | undefined {
  if (typeof cause !== 'object' || cause === null) return undefined;
  const record = cause as Record<string, unknown>;
  const status = record['status'];
  const nested = typeof status === 'object' && status !== null ? (status as Record<string, unknown>)['reasonCode'] : undefined;
  const code = record['reasonCode'] ?? nested;
  return typeof code === 'string' ? code : undefined;
}

/** A one-line name for a cause: its `type` or `schema` (and status or reason) when it has them. */
function causeSummary(cause: unknown): string {
  if (typeof cause !== 'object' || cause === null) return String(cause);
  const record = cause as Record<string, unknown>;
  const status = record['status'];
  const outcome = typeof status === 'object' && status !== null ? (status as Record<string, unknown>)['outcome'] : status;
  const parts = [record['type'] ?? record['schema'], record['kind'], record['answer'], outcome, record['reasonCode']].filter((value) => typeof value === 'string');
  return parts.length > 0 ? parts.join(' · ') : 'details';
}

/** An inbound transaction's cause, said as what it is: the integrator's answer, a failed call to it, the scheme's final word. */
function inboundCauseSummary(state: string, cause: unknown): string {
  const record = typeof cause === 'object' && cause !== null ? (cause as Record<string, unknown>) : {};
  if (record['schema'] === 'IntegratorCallFailure') return `call to the integrator failed: ${typeof record['error'] === 'string' ? record['error'] : 'details'}`;
  if (record['schema'] === 'IntegratorAnswerProblem') return "the integrator's answer breaks the rules";
  if (state.endsWith('_RESPONSE_RECEIVED')) return `the integrator's answer: ${causeSummary(cause)}`;
  if (state.endsWith('_COMPLETION_RECEIVED')) return `the scheme's final word: ${causeSummary(cause)}`;
  return causeSummary(cause);
}

function Deliveries(props: { readonly deliveries: readonly TransactionDelivery[]; readonly inbound: boolean; readonly onReplayed: () => void }) {
  const { deliveries, onReplayed } = props;
  return (
    <>
      <h2>Callbacks and events</h2>
      {props.inbound ? (
        <p class="muted small">
          What the service must deliver to the integrator: the completion of a credit (the scheme's final word) and the events. Its calls asking the
          integrator for an answer are in States above.
        </p>
      ) : null}
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
                    {props.inbound && delivery.channel === 'callback' && inboundCallbackMeaning(delivery.url) !== undefined ? (
                      <div class="small">{inboundCallbackMeaning(delivery.url)}</div>
                    ) : null}
                    <div class="mono small muted">{delivery.url}</div>
                    <Folded summary="Body sent" value={delivery.body} />
                  </td>
                  <td>
                    <StatusBadge text={delivery.status} />
                    {delivery.nextAttemptAt === null ? null : <div class="small muted">next attempt {formatTimeUtc(delivery.nextAttemptAt)}</div>}
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

/** What a callback of an inbound transaction tells the integrator, by its path (CONTRACT §11). */
function inboundCallbackMeaning(url: string): string | undefined {
  if (url.endsWith('/credit-transfer-completion')) return "completion: the scheme's final word, on which the integrator credits its customer";
  if (url.endsWith('/request-to-pay/cancellation-request')) return 'the request-to-pay was withdrawn or expired';
  if (url.endsWith('/inbound/request-to-pay')) return "the request-to-pay, for the integrator's customer to decide";
  return undefined;
}

/** The event type or callback name a delivery carries, when its body says. */
function eventType(delivery: TransactionDelivery): string {
  const body = delivery.body as Record<string, unknown> | null;
  const type = typeof body === 'object' && body !== null ? body['type'] ?? body['eventType'] : undefined;
  if (typeof type === 'string') return type;
  return delivery.url.split('/').filter((part) => part !== '').at(-1) ?? '';
}

function SchemeMessages({ messages, inbound }: { readonly messages: readonly SchemeMessage[]; readonly inbound: boolean }) {
  return (
    <>
      <h2>Scheme messages</h2>
      {messages.length === 0 ? <p class="empty">None sent or received yet.</p> : null}
      {messages.map((message, index) => (
        <article key={`${message.messageId}-${index}`} class="scheme-message">
          <details>
            <summary>
              <span class="time">{formatTimeUtc(message.at)}</span> {message.direction === 'sent' ? 'Sent' : 'Received'} <strong>{message.messageName}</strong>{' '}
              <span class="mono small">{message.messageId}</span>
              {inbound ? <span class="muted small"> {message.direction === 'sent' ? '(answer to the scheme)' : '(from the scheme)'}</span> : null}
            </summary>
            <pre class="xml">{prettyXml(message.document)}</pre>
          </details>
        </article>
      ))}
    </>
  );
}
