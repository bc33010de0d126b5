import { useRef, useState } from 'preact/hooks';
import { Code, ErrorLine, Folded, LiveToggle, StatusBadge } from '../components';
import { formatTime } from '../format';
import { useApi, usePoll } from '../hooks';
import type { InboxMessage, InboxPage } from '../types';

/**
 * The zero-config demo's inbox (GET /admin/v1/demo-inbox): the callbacks and events the demo
 * integrator was sent, received by the service itself, newest first, as they arrive. Each row
 * says what the message reports (outcome or status, and the reason); unfolded, it shows the body
 * exactly as received with its signature headers, to check against one's own webhook library.
 */
const SHOWN_MAX = 500;

export function InboxView() {
  const api = useApi();
  const [live, setLive] = useState(true);
  const [messages, setMessages] = useState<readonly InboxMessage[]>([]);
  const after = useRef(0);
  const polled = usePoll(
    async () => {
      const page = await api<InboxPage>(`/admin/v1/demo-inbox?after=${after.current}&limit=1000`);
      after.current = page.next;
      if (page.messages.length > 0) setMessages((shown) => [...[...page.messages].reverse(), ...shown].slice(0, SHOWN_MAX));
      return page;
    },
    'inbox',
    { live },
  );
  return (
    <section aria-labelledby="page-title">
      <h1 id="page-title" tabIndex={-1}>
        Demo inbox
      </h1>
      <p class="lead">
        With no configuration, the demo integrator's callbacks and events are sent to the service itself, which checks their signatures and keeps the latest
        1,000 in memory. Newest first.
      </p>
      <LiveToggle live={live} onChange={setLive} updatedAt={polled.updatedAt} />
      <ErrorLine error={polled.error} />
      {polled.data !== undefined && messages.length === 0 ? <p class="empty">Nothing received yet: send a request as the demo integrator.</p> : null}
      {messages.length === 0 ? null : (
        <table class="inbox">
          <caption class="visually-hidden">Messages received, newest first</caption>
          <thead>
            <tr>
              <th scope="col">Received (UTC)</th>
              <th scope="col">Channel</th>
              <th scope="col">Message</th>
              <th scope="col">Status</th>
              <th scope="col">Reason</th>
              <th scope="col">Signature</th>
            </tr>
          </thead>
          <tbody>
            {messages.map((message) => (
              <tr key={message.seq}>
                <td class="time">{formatTime(message.receivedAt)}</td>
                <td>{message.channel}</td>
                <td>
                  <Code text={summary(message)} />
                  <div class="mono small muted">{message.path}</div>
                  <Folded summary="body" value={message.body} />
                  <details class="raw">
                    <summary>raw body and signature headers</summary>
                    <pre class="signature-headers">{signatureHeaderLines(message)}</pre>
                    <pre class="raw-body">{message.rawBody}</pre>
                  </details>
                </td>
                <td>
                  <StatusBadge text={message.status} />
                  {message.status !== null && message.answer !== undefined ? <div class="muted small">the demo bank’s answer</div> : null}
                </td>
                <td>{message.reason === null ? <span class="muted">—</span> : <Reason reason={message.reason} />}</td>
                <td>{message.signatureValid ? 'valid' : <strong class="error">invalid</strong>}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

/** The event type of an event, the path's last part for a callback. */
function summary(message: InboxMessage): string {
  const body = message.body;
  const type = typeof body === 'object' && body !== null ? (body as Record<string, unknown>)['type'] : undefined;
  return typeof type === 'string' ? type : (message.path.split('/').filter((part) => part !== '').at(-1) ?? message.path);
}

function Reason({ reason }: { readonly reason: NonNullable<InboxMessage['reason']> }) {
  return (
    <>
      <span class="mono">{reason.code}</span>
      {reason.text === null ? null : <span> {reason.text}</span>}
    </>
  );
}

/** The three Standard Webhooks headers as they were received, one `name: value` line each. */
function signatureHeaderLines(message: InboxMessage): string {
  return Object.entries(message.signatureHeaders)
    .map(([name, value]) => `${name}: ${value ?? '(absent)'}`)
    .join('\n');
}
