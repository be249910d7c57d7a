// The webhooks module's public entry.
export { webhooksModule } from './module.ts'
export { EVENT_TYPES, SUBSCRIBABLE } from './event-types.ts'
export type { EventType } from './event-types.ts'
