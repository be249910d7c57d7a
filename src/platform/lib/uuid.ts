// The one syntax check of a UUID (ids of customers, users, tokens): before any query, so a malformed id is a
// clear refusal and not a database cast error.
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

export const isUuid = (value: string): boolean => UUID.test(value)
