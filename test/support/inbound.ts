/** Test helpers for a connector's inbound side: one that records every report and lets a test wait for the ones it expects. */

/** Records every report it receives; a subclass finds the ones it is asked about and waits with until(). */
export class ReportRecorder<Report> {
  readonly reports: Report[] = [];
  #waiters: (() => void)[] = [];

  receive(report: Report): Promise<void> {
    this.reports.push(report);
    const waiters = this.#waiters;
    this.#waiters = [];
    for (const wake of waiters) wake();
    return Promise.resolve();
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
