import { useState } from 'preact/hooks';
import { query } from '../api';
import { Choice, Code, DirectionBadge, ErrorLine, FilterActions, LiveToggle, ReasonCode, StateChoice, StatusBadge } from '../components';
import { formatAmount, formatTime, inputFromUtc, kindLabel, utcFromInput } from '../format';
import { useApi, usePoll } from '../hooks';
import { useReasonTexts, useSchemes, useStates } from '../reference';
import { transactionHref, transactionsHref } from '../route';
import type { Direction, TransactionList, TransactionStates, TransactionSummary } from '../types';

/**
 * Every transaction, newest first, refreshed live, narrowed by the filters of the search API.
 * The filters live in the URL (`#/transactions?scheme=ZA_RPP`), so a filtered list can be shared.
 */
const PAGE_SIZE = 50;
const DIRECTIONS: readonly Direction[] = ['INBOUND', 'OUTBOUND'];
const OUTCOMES = ['APPROVED', 'REJECTED', 'SUCCESSFUL', 'FAILED', 'PAID', 'EXPIRED', 'CANCELLED'];
const SEARCH_KEYS = [
  { key: 'uetr', label: 'UETR' },
  { key: 'messageId', label: 'Message id' },
  { key: 'endToEndId', label: 'End-to-end id' },
] as const;
const FILTER_KEYS = ['state', 'scheme', 'outcome', 'kind', 'direction', 'integratorId', 'from', 'to', ...SEARCH_KEYS.map((each) => each.key)];

export function TransactionsView({ filters }: { readonly filters: URLSearchParams }) {
  const api = useApi();
  const states = useStates(api);
  const schemes = useSchemes(api);
  const texts = useReasonTexts(api);
  const [live, setLive] = useState(true);
  const [older, setOlder] = useState<{ key: string; rows: readonly TransactionSummary[]; cursor: string | null }>({ key: '', rows: [], cursor: null });
  const [moreError, setMoreError] = useState<Error | undefined>();
  const parameters = Object.fromEntries(FILTER_KEYS.map((key) => [key, filters.get(key) ?? undefined]));
  const key = JSON.stringify(parameters);
  const head = usePoll(() => api<TransactionList>(`/admin/v1/transactions${query({ ...parameters, limit: PAGE_SIZE })}`), key, { live });

  // Pages loaded with "Show more" stay as they were; the live first page comes before them. When
  // it no longer reaches them (more new ones than a page since), they are let go.
  const newest = head.data?.transactions ?? [];
  const kept = older.key === key ? older : { key, rows: [], cursor: null };
  const newestIds = new Set(newest.map((row) => row.id));
  const olderIds = new Set(kept.rows.map((row) => row.id));
  const reaches = head.data?.nextCursor === null || newest.some((row) => olderIds.has(row.id)) || kept.rows.length === 0;
  const rows = reaches ? [...newest, ...kept.rows.filter((row) => !newestIds.has(row.id))] : newest;
  const cursor = kept.rows.length > 0 && reaches ? kept.cursor : (head.data?.nextCursor ?? null);

  const showMore = async (): Promise<void> => {
    if (cursor === null) return;
    try {
      const page = await api<TransactionList>(`/admin/v1/transactions${query({ ...parameters, limit: PAGE_SIZE, cursor })}`);
      setOlder({ key, rows: [...(reaches ? kept.rows : []), ...page.transactions], cursor: page.nextCursor });
      setMoreError(undefined);
    } catch (error) {
      setMoreError(error as Error);
    }
  };

  return (
    <section aria-labelledby="page-title">
      <h1 id="page-title" tabIndex={-1}>
        Transactions
      </h1>
      <Filters key={key} filters={filters} states={states} schemes={schemes} />
      <LiveToggle live={live} onChange={setLive} updatedAt={head.updatedAt} />
      <ErrorLine error={head.error} />
      {head.data === undefined ? null : rows.length === 0 ? (
        <p class="empty">No transaction matches.</p>
      ) : (
        <TransactionTable rows={rows} texts={texts} />
      )}
      <ErrorLine error={moreError} />
      {cursor === null ? null : (
        <button type="button" onClick={() => void showMore()}>
          Show more
        </button>
      )}
    </section>
  );
}

function TransactionTable({ rows, texts }: { readonly rows: readonly TransactionSummary[]; readonly texts: ReadonlyMap<string, string> }) {
  return (
    <div class="table-wrap">
      <table class="transactions">
        <caption class="visually-hidden">Transactions, newest first</caption>
        <thead>
          <tr>
            <th scope="col">Created (UTC)</th>
            <th scope="col">Transaction (UETR)</th>
            <th scope="col">Direction</th>
            <th scope="col">Kind</th>
            <th scope="col">Scheme</th>
            <th scope="col">Integrator</th>
            <th scope="col" class="number">
              Amount
            </th>
            <th scope="col">State</th>
            <th scope="col">Outcome</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.id}>
              <td class="time">{formatTime(row.createdAt)}</td>
              <td>
                <a href={transactionHref(row.id)} class="mono nowrap">
                  {row.uetr}
                </a>
                <div class="muted small">{row.messageId}</div>
              </td>
              <td>
                <DirectionBadge direction={row.direction} />
              </td>
              <td class="small">
                {kindLabel(row.kind)}
                <div class="muted">
                  <Code text={row.kind} />
                </div>
              </td>
              <td>{row.scheme}</td>
              <td>{row.integratorId}</td>
              <td class="number mono nowrap">{formatAmount(row.amount)}</td>
              <td class="small">
                <Code text={row.state} />
              </td>
              <td>
                <StatusBadge text={row.outcome} /> {row.reasonCode === null ? null : <ReasonCode code={row.reasonCode} texts={texts} />}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

type SearchKey = (typeof SEARCH_KEYS)[number]['key'];
const EMPTY = { state: '', scheme: '', outcome: '', kind: '', direction: '', integratorId: '', from: '', to: '', searchKey: 'uetr' as SearchKey, search: '' };

/** The search form: its fields start from the URL, and applying them writes the URL. */
function Filters({ filters, states, schemes }: { readonly filters: URLSearchParams; readonly states: TransactionStates | undefined; readonly schemes: readonly string[] }) {
  const initialSearch: SearchKey = SEARCH_KEYS.find((each) => filters.has(each.key))?.key ?? 'uetr';
  const [values, setValues] = useState(() => ({
    ...EMPTY,
    state: filters.get('state') ?? '',
    scheme: filters.get('scheme') ?? '',
    outcome: filters.get('outcome') ?? '',
    kind: filters.get('kind') ?? '',
    direction: filters.get('direction') ?? '',
    integratorId: filters.get('integratorId') ?? '',
    from: inputFromUtc(filters.get('from')),
    to: inputFromUtc(filters.get('to')),
    searchKey: initialSearch,
    search: filters.get(initialSearch) ?? '',
  }));
  const set = (name: keyof typeof values) => (event: Event) => setValues({ ...values, [name]: (event.currentTarget as HTMLInputElement).value });

  const apply = (event: Event): void => {
    event.preventDefault();
    const next = new URLSearchParams();
    for (const name of ['state', 'scheme', 'outcome', 'kind', 'direction', 'integratorId'] as const) if (values[name].trim() !== '') next.set(name, values[name].trim());
    const from = utcFromInput(values.from);
    const to = utcFromInput(values.to);
    if (from !== undefined) next.set('from', from);
    if (to !== undefined) next.set('to', to);
    if (values.search.trim() !== '') next.set(values.searchKey, values.search.trim());
    location.hash = transactionsHref(next);
  };

  return (
    <form class="filters" onSubmit={apply} aria-label="Filter transactions">
      <div class="search">
        <label>
          Find by
          <select value={values.searchKey} onChange={set('searchKey')}>
            {SEARCH_KEYS.map((each) => (
              <option key={each.key} value={each.key}>
                {each.label}
              </option>
            ))}
          </select>
        </label>
        <label class="grow">
          Search
          <input type="search" value={values.search} onInput={set('search')} placeholder="a UETR, message id or end-to-end id" />
        </label>
      </div>
      <div class="fields">
        <StateChoice value={values.state} states={states} kind={values.kind} direction={values.direction} onChange={(state) => setValues({ ...values, state })} />
        <Choice label="Scheme" value={values.scheme} options={schemes} onChange={(scheme) => setValues({ ...values, scheme })} />
        <Choice label="Outcome" value={values.outcome} options={OUTCOMES} onChange={(outcome) => setValues({ ...values, outcome })} />
        <Choice label="Direction" value={values.direction} options={DIRECTIONS} onChange={(direction) => setValues({ ...values, direction })} />
        <Choice label="Kind" value={values.kind} options={(states?.kinds ?? []).map((each) => each.kind)} onChange={(kind) => setValues({ ...values, kind })} />
        <label>
          Integrator
          <input value={values.integratorId} onInput={set('integratorId')} placeholder="any" />
        </label>
        <label>
          From (UTC)
          <input type="datetime-local" step={1} value={values.from} onInput={set('from')} />
        </label>
        <label>
          To (UTC)
          <input type="datetime-local" step={1} value={values.to} onInput={set('to')} />
        </label>
      </div>
      <FilterActions
        onClear={() => {
          setValues(EMPTY);
          location.hash = '#/transactions';
        }}
      />
    </form>
  );
}
