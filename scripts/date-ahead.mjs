// A preload that moves this process's wall clock (Date) ahead, timers and the monotonic clock untouched: the trial of
// the suite's dependence on the day it runs (docs/architecture.md, "Dates"). PGlite reads its clock through
// Date.now(), so the embedded database moves too; a PostgreSQL server does not (run one under libfaketime).
//   NODE_OPTIONS="--import ./scripts/date-ahead.mjs" DATE_AHEAD_DAYS=365 npm test
const OFFSET = Number(process.env.DATE_AHEAD_DAYS ?? 365) * 86_400_000
const RealDate = globalThis.Date
function AheadDate(...args) {
  if (!new.target) return new RealDate(RealDate.now() + OFFSET).toString()
  return args.length ? new RealDate(...args) : new RealDate(RealDate.now() + OFFSET)
}
AheadDate.prototype = RealDate.prototype
Object.setPrototypeOf(AheadDate, RealDate)
AheadDate.now = () => RealDate.now() + OFFSET
AheadDate.parse = RealDate.parse
AheadDate.UTC = RealDate.UTC
globalThis.Date = AheadDate
