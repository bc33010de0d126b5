const NO_SPAN = { traceparent: undefined, end: () => undefined };
/** Tracing off: every span is one shared object that records nothing. */
export const NO_TRACING = { start: () => NO_SPAN };
//# sourceMappingURL=observability.js.map