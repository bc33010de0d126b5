import { randomUUID } from 'node:crypto';
import type { Clock, Ids } from '../../ports/clock.js';

export const systemClock: Clock = { now: () => Date.now() };

export const randomIds: Ids = { uuid: () => randomUUID() };
