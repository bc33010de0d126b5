/**
 * A poll pause drawn uniformly between half and one and a half of `intervalMs` (its mean), so
 * instances that happened to poll in step (after a shared stall of the database) drift apart
 * instead of claiming together at every interval.
 */
export function jittered(intervalMs, random) {
    return Math.round(intervalMs * (0.5 + random()));
}
//# sourceMappingURL=jitter.js.map