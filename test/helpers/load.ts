// Load for the fault tests: loops of real HTTP requests that record every answer, so a test can say afterwards
// what was answered while a dependency was gone (and see a process that died as answers of status 0).
export type Answer = { status: number, detail?: string | undefined, body?: Record<string, unknown> | undefined }

/** One request; a refused connection (the process is gone) is an answer of status 0, so the test sees it. */
export async function call(url: string, init?: RequestInit): Promise<Answer> {
  try {
    const res = await fetch(url, init)
    const text = await res.text()
    const body = text.startsWith('{') ? JSON.parse(text) as Record<string, unknown> : undefined
    return { status: res.status, detail: typeof body?.detail === 'string' ? body.detail : undefined, body }
  } catch {
    return { status: 0 }
  }
}

/** Runs `step` over and over until `stop()` says so (or `max` times), adding what it answered to `answers`. */
export async function loop(stop: () => boolean, max: number, answers: Answer[], step: () => Promise<Answer>): Promise<void> {
  for (let i = 0; i < max && !stop(); i++) {
    answers.push(await step())
    await new Promise((r) => setTimeout(r, 5))
  }
}

/** The distinct answers, as "status detail". */
export const summary = (answers: Answer[]): string[] => [...new Set(answers.map((a) => `${a.status} ${a.detail ?? ''}`.trim()))]

/** POSTs `body` as JSON. */
export const postJson = (url: string, body: unknown): Promise<Answer> =>
  call(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
