/** Test helpers for a connector's inbound side: one that records every report and lets a test wait for the ones it expects. */
import type { OriginateOutcome, SchemeAnswers, SchemeInbound, SchemeRequest } from '../../src/ports/scheme.js';

/** Records every report it receives; a subclass finds the ones it is asked about and waits with until(). */
export class ReportRecorder<Report> {
  readonly reports: Report[] = [];
  /** Every message the scheme originated (the receiving direction), accepted as `originated` says. */
  readonly originated: SchemeRequest[] = [];
  /** What originate() answers: accepted unless a test says otherwise. */
  originateOutcome: OriginateOutcome = { kind: 'accepted' };
  #waiters: (() => void)[] = [];

  originate(request: SchemeRequest): Promise<OriginateOutcome> {
    this.originated.push(request);
    this.#wakeAll();
    return Promise.resolve(this.originateOutcome);
  }

  receive(report: Report): Promise<void> {
    this.reports.push(report);
    this.#wakeAll();
    return Promise.resolve();
  }

  #wakeAll(): void {
    const waiters = this.#waiters;
    this.#waiters = [];
    for (const wake of waiters) wake();
  }

  /** Resolves once `done()` holds, looked at again on every report; rejects with `failure()` once `timeoutMs` have passed. */
  protected async until(done: () => boolean, failure: () => string, timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!done()) {
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(failure());
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.#waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }
}

/** A service side that takes the scheme's answers only: every message the scheme originates is refused (tests of the sending direction). */
export function answersOnly(answers: SchemeAnswers): SchemeInbound {
  return {
    receive: (report) => answers.receive(report),
    originate: () => Promise.resolve({ kind: 'refused', reasonCode: 'AGNT', reasonText: 'this test receives nothing' }),
  };
}
