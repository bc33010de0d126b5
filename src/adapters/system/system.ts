import type { Clock, Ids } from '../../ports/clock.js';
import { uuid7 } from '../../lib/uuid7.js';

export const systemClock: Clock = { now: () => Date.now() };

/** Time-ordered UUIDs (version 7): unique like random ones, and cheap to index (lib/uuid7.ts). */
export const systemIds: Ids = { uuid: () => uuid7() };
