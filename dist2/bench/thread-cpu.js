import { readdirSync, readFileSync } from 'node:fs';
const CLOCK_TICKS_PER_S = 100;
/**
 * CPU time (user + system) each thread of a process has used so far, in microseconds, by thread:
 * `main`, or `thread <id>` (worker threads, libuv's pool, V8's helpers). Linux only (/proc). On a
 * shared, noisy machine CPU per unit of work moves far less than throughput does, so the
 * benchmarks report it to compare a change before and after.
 */
export function threadCpuUs(pid) {
    const used = new Map();
    for (const tid of readdirSync(`/proc/${pid}/task`)) {
        let stat;
        try {
            stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
        }
        catch {
            continue; // the thread ended meanwhile
        }
        const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        used.set(tid === String(pid) ? 'main' : `thread ${tid}`, ((Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS_PER_S) * 1e6);
    }
    return used;
}
/** CPU per unit of work between two readings, by thread (largest first, threads under 1 µs left out), and in total. */
export function cpuPerUnit(before, after, units) {
    const byThread = [...after]
        .map(([thread, us]) => [thread, (us - (before.get(thread) ?? 0)) / units])
        .filter(([, us]) => us >= 1)
        .sort((a, b) => b[1] - a[1]);
    return { totalUs: byThread.reduce((sum, [, us]) => sum + us, 0), byThread };
}
/**
 * CPU time every PostgreSQL process on this machine has used so far, in microseconds: each live
 * process's own, plus what the postmasters collected from backends that already exited. A
 * difference of two readings is the database's CPU over that span. Linux only (/proc).
 */
export function postgresCpuUs() {
    let total = 0;
    for (const pid of readdirSync('/proc')) {
        if (!/^\d+$/.test(pid))
            continue;
        let stat;
        try {
            stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
        }
        catch {
            continue;
        }
        const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
        if (name !== 'postgres')
            continue;
        const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        // utime, stime, and the reaped children's cutime, cstime.
        total += ((Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14])) / CLOCK_TICKS_PER_S) * 1e6;
    }
    return total;
}
//# sourceMappingURL=thread-cpu.js.map