// The base of errors that are expected answers (a 422, a 401, a 503 while the database is away), not faults.
// They are thrown on every bad request, and capturing a stack was most of the cost of a 422 in the profile;
// nobody reads their stack (the error handler answers them, and logs only unexpected errors, with theirs).

export class AnswerError extends Error {
  constructor(message: string) {
    const limit = Error.stackTraceLimit
    Error.stackTraceLimit = 0
    try {
      super(message)
    } finally {
      Error.stackTraceLimit = limit
    }
  }
}
