import { useRef, useState } from 'preact/hooks';
import { ErrorLine, Folded, LiveToggle } from '../components';
import { formatTime } from '../format';
import { useApi, usePoll } from '../hooks';
import type { InboxMessage, InboxPage } from '../types';

/**
 * The zero-config demo's inbox (GET /admin/v1/demo-inbox): the callbacks and events the demo
 * integrator was sent, received by the service itself, newest first, as they arrive.
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
              <th scope="col">Path</th>
              <th scope="col">Signature</th>
              <th scope="col">Body</th>
            </tr>
          </thead>
          <tbody>
            {messages.map((message) => (
              <tr key={message.seq}>
                <td class="time">{formatTime(message.receivedAt)}</td>
                <td>{message.channel}</td>
                <td class="mono small">{message.path}</td>
                <td>{message.signatureValid ? 'valid' : <strong class="error">invalid</strong>}</td>
                <td>
                  <Folded summary={summary(message)} value={message.body} />
                </td>
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
