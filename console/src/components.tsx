import type { ComponentChildren } from 'preact';
import { ApiFailure } from './api';
import { formatJson } from './format';

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
export function LiveToggle({ live, onChange, updatedAt }: { readonly live: boolean; readonly onChange: (live: boolean) => void; readonly updatedAt: Date | undefined }) {
  return (
    <p class="live">
      <label>
        <input type="checkbox" checked={live} onChange={(event) => onChange(event.currentTarget.checked)} /> Live (refreshes every 2 s)
      </label>
      <span class="muted"> {updatedAt === undefined ? 'loading…' : `updated ${updatedAt.toLocaleTimeString()}`}</span>
    </p>
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
