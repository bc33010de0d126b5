import { useState } from 'preact/hooks';
import { query } from '../api';
import { Choice, Code, DirectionBadge, ErrorLine, FilterActions, LiveToggle, ReasonCode, StateChoice, StatusBadge } from '../components';
import { formatAmount, formatDuration, formatTime, kindLabel } from '../format';
import { useApi, usePoll } from '../hooks';
import { useReasonTexts, useSchemes, useStates } from '../reference';
import { transactionHref, waitingHref } from '../route';
import type { WaitingList, WaitingTransaction } from '../types';

/**
 * What still waits (GET /admin/v1/waiting): the transactions not final yet, those waiting longest
 * first, with how long each has waited and when its next timer is due. Where an operator starts
 * when payments seem stuck; scheme health's in-flight counts lead here, narrowed to the scheme.
 */
const PAGE_SIZE = 100;
/** The API's largest page: the view shows at most this many. */
const SHOWN_MAX = 500;
const FILTER_KEYS = ['scheme', 'kind', 'state', 'decided', 'integratorId'];
const EMPTY = { scheme: '', kind: '', state: '', decided: '', integratorId: '' };

export function WaitingView({ filters }: { readonly filters: URLSearchParams }) {
  const api = useApi();
  const states = useStates(api);
  const schemes = useSchemes(api);
  const texts = useReasonTexts(api);
  const [live, setLive] = useState(true);
  const [shown, setShown] = useState(PAGE_SIZE);
  const parameters = Object.fromEntries(FILTER_KEYS.map((key) => [key, filters.get(key) ?? undefined]));
  const key = JSON.stringify(parameters);
  const polled = usePoll(() => api<WaitingList>(`/admin/v1/waiting${query({ ...parameters, limit: shown })}`), `${key} ${shown}`, { live });
  const list = polled.data;
  const [values, setValues] = useState(() => ({ ...EMPTY, ...Object.fromEntries(FILTER_KEYS.map((name) => [name, filters.get(name) ?? ''])) }));

  const apply = (event: Event): void => {
    event.preventDefault();
    const next = new URLSearchParams();
    for (const [name, value] of Object.entries(values)) if (value.trim() !== '') next.set(name, value.trim());
    location.hash = waitingHref(next);
  };

  return (
    <section aria-labelledby="page-title">
      <h1 id="page-title" tabIndex={-1}>
        Waiting
      </h1>
      <p class="muted lead">
        Transactions not final yet (in a state their machine can leave), those waiting longest first: how long since each was accepted, the state it waits in,
        and when its next timer is due (an enquiry, a retry, the end of a time budget). Those with no outcome yet are in flight (waiting for an answer); those
        decided wait for their callback to be acknowledged.
      </p>
      <form class="filters" onSubmit={apply} aria-label="Filter waiting transactions">
        <div class="fields">
          <Choice label="Scheme" value={values.scheme} options={schemes} onChange={(scheme) => setValues({ ...values, scheme })} />
          <Choice label="Kind" value={values.kind} options={(states?.kinds ?? []).map((each) => each.kind)} onChange={(kind) => setValues({ ...values, kind, state: '' })} />
          <StateChoice value={values.state} states={states} kind={values.kind} open onChange={(state) => setValues({ ...values, state })} />
          <label>
            Outcome
            <select value={values.decided} onChange={(event) => setValues({ ...values, decided: event.currentTarget.value })}>
              <option value="">any</option>
              <option value="false">not decided yet (in flight)</option>
              <option value="true">decided, callback due</option>
            </select>
          </label>
          <label>
            Integrator
            <input value={values.integratorId} onInput={(event) => setValues({ ...values, integratorId: event.currentTarget.value })} placeholder="any" />
          </label>
        </div>
        <FilterActions
          onClear={() => {
            setValues(EMPTY);
            location.hash = '#/waiting';
          }}
        />
      </form>
      <LiveToggle live={live} onChange={setLive} updatedAt={polled.updatedAt} />
      <ErrorLine error={polled.error} />
      {list === undefined ? null : list.transactions.length === 0 ? (
        <p class="empty">Nothing waits{filters.toString() === '' ? '' : ' among these'}: every transaction is final.</p>
      ) : (
        <WaitingTable rows={list.transactions} asOf={list.asOf} texts={texts} />
      )}
      {list?.nextCursor == null || shown >= SHOWN_MAX ? null : (
        <button type="button" onClick={() => setShown(shown + PAGE_SIZE)}>
          Show more
        </button>
      )}
    </section>
  );
}

function WaitingTable({ rows, asOf, texts }: { readonly rows: readonly WaitingTransaction[]; readonly asOf: string; readonly texts: ReadonlyMap<string, string> }) {
  const now = Date.parse(asOf);
  return (
    <div class="table-wrap">
      <table class="transactions waiting">
        <caption class="visually-hidden">Transactions not final, waiting longest first</caption>
        <thead>
          <tr>
            <th scope="col" class="number">
              Waited
            </th>
            <th scope="col">Accepted (UTC)</th>
            <th scope="col">Transaction (UETR)</th>
            <th scope="col">Kind</th>
            <th scope="col">Scheme</th>
            <th scope="col">Integrator</th>
            <th scope="col" class="number">
              Amount
            </th>
            <th scope="col">Waits in</th>
            <th scope="col">Next timer (UTC)</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => {
            const dueIn = Date.parse(row.dueAt) - now;
            return (
              <tr key={row.id}>
                <td class="number nowrap age">{formatDuration(row.waitedMs)}</td>
                <td class="time">{formatTime(row.createdAt)}</td>
                <td>
                  <a href={transactionHref(row.id)} class="mono nowrap">
                    {row.uetr}
                  </a>
                  <div class="muted small">{row.messageId}</div>
                </td>
                <td class="small">
                  <DirectionBadge direction={row.direction} /> {kindLabel(row.kind)}
                </td>
                <td>{row.scheme}</td>
                <td>{row.integratorId}</td>
                <td class="number mono nowrap">{formatAmount(row.amount)}</td>
                <td class="small">
                  <Code text={row.state} />
                  {row.outcome === null ? null : (
                    <div>
                      <StatusBadge text={row.outcome} /> {row.reasonCode === null ? null : <ReasonCode code={row.reasonCode} texts={texts} />}
                    </div>
                  )}
                </td>
                <td>
                  <span class="time">{formatTime(row.dueAt)}</span>
                  <div class="small muted">{dueIn >= 0 ? `in ${formatDuration(dueIn)}` : `overdue by ${formatDuration(dueIn)}`}</div>
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
