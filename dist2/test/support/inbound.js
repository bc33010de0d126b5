/** Records every report it receives; a subclass finds the ones it is asked about and waits with until(). */
export class ReportRecorder {
    reports = [];
    /** Every message the scheme originated (the receiving direction), accepted as `originated` says. */
    originated = [];
    /** What originate() answers: accepted unless a test says otherwise. */
    originateOutcome = { kind: 'accepted' };
    #waiters = [];
    originate(request) {
        this.originated.push(request);
        this.#wakeAll();
        return Promise.resolve(this.originateOutcome);
    }
    receive(report) {
        this.reports.push(report);
        this.#wakeAll();
        return Promise.resolve();
    }
    #wakeAll() {
        const waiters = this.#waiters;
        this.#waiters = [];
        for (const wake of waiters)
            wake();
    }
    /** Resolves once `done()` holds, looked at again on every report; rejects with `failure()` once `timeoutMs` have passed. */
    async until(done, failure, timeoutMs) {
        const deadline = Date.now() + timeoutMs;
        while (!done()) {
            const left = deadline - Date.now();
            if (left <= 0)
                throw new Error(failure());
            await new Promise((resolve) => {
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
export function answersOnly(answers) {
    return {
        receive: (report) => answers.receive(report),
        originate: () => Promise.resolve({ kind: 'refused', reasonCode: 'AGNT', reasonText: 'this test receives nothing' }),
    };
}
//# sourceMappingURL=inbound.js.map