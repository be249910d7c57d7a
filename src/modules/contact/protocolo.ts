// A contact's protocolo: the outbox's shape (src/platform/outbox/protocolo.ts) under the prefix `CT`.
export const CONTACT_PREFIX = 'CT'

export const PROTOCOLO_PATTERN = /^CT-\d{8}-[0-9A-HJKMNP-TV-Z]{8}$/
