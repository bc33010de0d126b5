import type { FastifyReply } from 'fastify';

/**
 * Aborted once the client has gone away before its response was complete (its connection
 * closed): a handler that waits on the client's behalf (a held lookup) stops waiting then, so
 * its timers and listeners are not kept for an answer nobody will read.
 */
export function clientGone(reply: FastifyReply): AbortSignal {
  const controller = new AbortController();
  const response = reply.raw;
  const closed = (): void => {
    if (!response.writableFinished) controller.abort();
  };
  if (response.closed) closed();
  else response.once('close', closed);
  return controller.signal;
}
