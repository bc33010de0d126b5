import { Fragment, type ComponentChildren } from 'preact';
import { ApiFailure } from './api';
import { formatClockUtc, formatJson } from './format';
import type { TransactionStates } from './types';
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
      <span class="muted"> {props.updatedAt === undefined ? '' : `updated ${formatClockUtc(props.updatedAt)}`}</span>
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

/**
 * A list to pick one of `options` from, or none (`anyLabel`). A value the list does not hold (yet:
 * the options come from the API; or no longer) is kept as an option, so it still shows.
 */
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
        {props.value !== '' && !props.options.includes(props.value) ? <option value={props.value}>{props.value}</option> : null}
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

/** A reason code with its text beside it, when the service's table has the code. */
export function ReasonCode({ code, texts }: { readonly code: string; readonly texts: ReadonlyMap<string, string> }) {
  const text = texts.get(code);
  return (
    <span class="reason">
      <span class="mono">{code}</span>
      {text === undefined ? null : <span class="reason-text"> {text}</span>}
    </span>
  );
}

/**
 * A list of the states the service declares (GET /admin/v1/states), grouped by kind: those of
 * `kind` only when one is chosen, and only the states a transaction can wait in when `open`. A
 * state in the address that the list does not hold (yet) is kept as an option, so it still shows.
 */
export function StateChoice(props: {
  readonly value: string;
  readonly states: TransactionStates | undefined;
  readonly kind?: string;
  readonly direction?: string;
  readonly open?: boolean;
  readonly onChange: (state: string) => void;
}) {
  const kinds = (props.states?.kinds ?? []).filter(
    (each) => (props.kind === undefined || props.kind === '' || each.kind === props.kind) && (props.direction === undefined || props.direction === '' || each.direction === props.direction),
  );
  const listed = kinds.some((each) => each.states.some((state) => state.state === props.value));
  return (
    <label>
      State
      <select value={props.value} onChange={(event) => props.onChange(event.currentTarget.value)}>
        <option value="">any</option>
        {props.value !== '' && !listed ? <option value={props.value}>{props.value}</option> : null}
        {kinds.map((each) => (
          <optgroup key={each.kind} label={each.kind}>
            {each.states
              .filter((state) => props.open !== true || !state.final)
              .map((state) => (
                <option key={state.state} value={state.state}>
                  {state.state}
                  {state.final && props.open !== true ? ' (final)' : ''}
                </option>
              ))}
          </optgroup>
        ))}
      </select>
    </label>
  );
}

/** A filter form's buttons: apply what is filled in (the form's submit), or clear every filter. */
export function FilterActions({ onClear }: { readonly onClear: () => void }) {
  return (
    <div class="actions">
      <button type="submit">Apply filters</button>
      <button type="button" class="secondary" onClick={onClear}>
        Clear
      </button>
    </div>
  );
}
