import { useState } from 'preact/hooks';
import { AcceptedChart, LatencyChart, OutcomesChart } from '../charts';
import { ErrorLine, LiveToggle, ReasonCode } from '../components';
import { formatTimeUtc } from '../format';
import { useApi, usePoll } from '../hooks';
import { useReasonTexts } from '../reference';
import { waitingHref } from '../route';
import type { SchemeHealth, SchemesHealth } from '../types';

/**
 * How each configured scheme that carries an operation is doing (GET /admin/v1/schemes/health):
 * what is in flight now (a link to those of the scheme that wait) and, of the transactions
 * accepted in a chosen window, the outcomes, rejections by reason code, scheme time budgets that
 * ran out, how long they took from their 202 to their outcome, and as small charts over the
 * window: accepted per minute, outcomes and p95 latency.
 */
const WINDOWS = [
  { minutes: 15, label: 'last 15 minutes' },
  { minutes: 60, label: 'last hour' },
  { minutes: 360, label: 'last 6 hours' },
  { minutes: 1_440, label: 'last 24 hours' },
];
const HEALTH_POLL_MS = 5_000;

export function HealthView() {
  const api = useApi();
  const [windowMinutes, setWindowMinutes] = useState(60);
  const [live, setLive] = useState(true);
  const polled = usePoll(() => api<SchemesHealth>(`/admin/v1/schemes/health?windowMinutes=${windowMinutes}`), String(windowMinutes), { live, intervalMs: HEALTH_POLL_MS });
  const health = polled.data;
  const texts = useReasonTexts(api);
  return (
    <section aria-labelledby="page-title">
      <h1 id="page-title" tabIndex={-1}>
        Scheme health
      </h1>
      <form class="filters" aria-label="Choose the window" onSubmit={(event) => event.preventDefault()}>
        <div class="fields">
          <label>
            Window
            <select value={windowMinutes} onChange={(event) => setWindowMinutes(Number(event.currentTarget.value))}>
              {WINDOWS.map((each) => (
                <option key={each.minutes} value={each.minutes}>
                  {each.label}
                </option>
              ))}
            </select>
          </label>
        </div>
      </form>
      <LiveToggle live={live} onChange={setLive} updatedAt={polled.updatedAt} intervalMs={HEALTH_POLL_MS} />
      <ErrorLine error={polled.error} />
      {health === undefined ? null : (
        <>
          <p class="muted">
            In flight is now, whenever accepted; the rest counts the transactions accepted from {formatTimeUtc(health.from)} to {formatTimeUtc(health.to)}.
          </p>
          {health.schemes.length === 0 ? <p class="empty">No scheme that carries payments is configured.</p> : null}
          <div class="cards">
            {health.schemes.map((scheme) => (
              <SchemeCard key={scheme.scheme} health={scheme} bucketMinutes={health.bucketMinutes} texts={texts} />
            ))}
          </div>
        </>
      )}
    </section>
  );
}

function SchemeCard({ health, bucketMinutes, texts }: { readonly health: SchemeHealth; readonly bucketMinutes: number; readonly texts: ReadonlyMap<string, string> }) {
  const latency = health.latencyMs;
  // In flight: waiting for an answer (no outcome yet), as the waiting view's "not decided yet".
  const waiting = waitingHref(new URLSearchParams({ scheme: health.scheme, decided: 'false' }));
  return (
    <article class="card" aria-labelledby={`scheme-${health.scheme}`}>
      <h2 id={`scheme-${health.scheme}`}>
        {health.scheme} <span class="muted small">{health.connector}</span>
      </h2>
      <dl class="figures">
        <div>
          <dt>In flight</dt>
          <dd>
            <a href={waiting} class="in-flight" aria-label={`In flight on ${health.scheme}: ${health.inFlight}, show what waits`}>
              {health.inFlight}
            </a>
          </dd>
        </div>
        <div>
          <dt>Accepted</dt>
          <dd>{health.accepted}</dd>
        </div>
        <div>
          <dt>Timeouts</dt>
          <dd>{health.timeouts}</dd>
        </div>
        <div>
          <dt>Latency p50</dt>
          <dd>{latency === null ? '—' : `${latency.p50} ms`}</dd>
        </div>
        <div>
          <dt>p95</dt>
          <dd>{latency === null ? '—' : `${latency.p95} ms`}</dd>
        </div>
        <div>
          <dt>max</dt>
          <dd>{latency === null ? '—' : `${latency.max} ms`}</dd>
        </div>
      </dl>
      <p class="muted small">{latency === null ? 'None decided in the window.' : `Latency: from the 202 to the outcome, over the ${latency.count} decided.`}</p>
      <div class="charts">
        <AcceptedChart series={health.series} bucketMinutes={bucketMinutes} label={health.scheme} />
        <OutcomesChart series={health.series} bucketMinutes={bucketMinutes} label={health.scheme} />
        <LatencyChart series={health.series} bucketMinutes={bucketMinutes} label={health.scheme} />
      </div>
      {bucketMinutes === 1 ? null : <p class="muted small">Each step of the charts is {bucketMinutes} minutes.</p>}
      <h3>Outcomes</h3>
      <Counts rows={health.outcomes.map((row) => [row.outcome, row.count])} empty="None in the window." label={`Outcomes of ${health.scheme}`} />
      <h3>Rejections by reason code</h3>
      <Counts
        rows={health.rejections.map((row) => [row.reasonCode, row.count])}
        empty="No rejection in the window."
        label={`Rejections of ${health.scheme}`}
        name={(code) => <ReasonCode code={code} texts={texts} />}
      />
    </article>
  );
}

function Counts(props: {
  readonly rows: readonly (readonly [string, number])[];
  readonly empty: string;
  readonly label: string;
  readonly name?: (name: string) => preact.ComponentChildren;
}) {
  const { rows, empty, label } = props;
  if (rows.length === 0) return <p class="empty small">{empty}</p>;
  return (
    <table class="counts" aria-label={label}>
      <tbody>
        {rows.map(([name, count]) => (
          <tr key={name}>
            <th scope="row" class={props.name === undefined ? 'mono' : undefined}>
              {props.name === undefined ? name : props.name(name)}
            </th>
            <td class="number">{count}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
