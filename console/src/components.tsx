import { Fragment, type ComponentChildren } from 'preact';
import { ApiFailure } from './api';
import { formatJson } from './format';
import { POLL_INTERVAL_MS } from './hooks';

/** A failed request, said in the API's own words. */
export function ErrorLine({ error }: { readonly error: Error | undefined }) {
  if (error === undefined) return null;
  return (
    <p class="error" role="alert">
      {error instanceof ApiFailure ? error.describe() : error.message}
    </p>
  );
}

/** The pause switch of a live view, with when it last changed. */
export function LiveToggle(props: { readonly live: boolean; readonly onChange: (live: boolean) => void; readonly updatedAt: Date | undefined; readonly intervalMs?: number }) {
  const seconds = (props.intervalMs ?? POLL_INTERVAL_MS) / 1_000;
  return (
    <p class="live">
      <label>
        <input type="checkbox" checked={props.live} onChange={(event) => props.onChange(event.currentTarget.checked)} /> Live (refreshes every {seconds} s)
      </label>
      <span class="muted"> {props.updatedAt === undefined ? '' : `updated ${props.updatedAt.toLocaleTimeString()}`}</span>
    </p>
  );
}

/** A code such as PAYMENT_AUTH_RESPONSE_DELIVERED, allowed to wrap after its underscores. */
export function Code({ text }: { readonly text: string }) {
  const parts = text.split('_');
  return (
    <span class="code">
      {parts.map((part, index) => (
        <Fragment key={index}>
          {part}
          {index < parts.length - 1 ? (
            <>
              _<wbr />
            </>
          ) : null}
        </Fragment>
      ))}
    </span>
  );
}

/** JSON (or text) folded under a summary line; shown as text, whatever it holds. */
export function Folded({ summary, value, open = false }: { readonly summary: ComponentChildren; readonly value: unknown; readonly open?: boolean }) {
  return (
    <details open={open}>
      <summary>{summary}</summary>
      <pre>{formatJson(value)}</pre>
    </details>
  );
}

export function StatusBadge({ text }: { readonly text: string | null }) {
  if (text === null) return <span class="muted">—</span>;
  return <span class={`badge badge-${text.toLowerCase()}`}>{text}</span>;
}

/** A list to pick one of `options` from, or none (`anyLabel`). */
export function Choice(props: {
  readonly label: string;
  readonly value: string;
  readonly options: readonly string[];
  readonly onChange: (value: string) => void;
  readonly anyLabel?: string;
}) {
  return (
    <label>
      {props.label}
      <select value={props.value} onChange={(event) => props.onChange(event.currentTarget.value)}>
        <option value="">{props.anyLabel ?? 'any'}</option>
        {props.options.map((option) => (
          <option key={option} value={option}>
            {option}
          </option>
        ))}
      </select>
    </label>
  );
}

/** Which way a transaction goes: received from the scheme (INBOUND) or sent by the integrator (OUTBOUND). */
export function DirectionBadge({ direction }: { readonly direction: string }) {
  const title = direction === 'INBOUND' ? 'the scheme sent it to the integrator' : 'the integrator sent it to the scheme';
  return (
    <span class={`badge direction-${direction.toLowerCase()}`} title={title}>
      <span aria-hidden="true">{direction === 'INBOUND' ? '↓ ' : '↑ '}</span>
      {direction}
    </span>
  );
}
