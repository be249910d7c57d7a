// Work every instance repeats on its own (the job scheduler's tick): once soon after start, then every period.
// Work the cluster needs done once, not once per instance, is a job (src/platform/jobs/). The timers never keep a process
// alive; the function returned stops both.
export function repeat(run: () => unknown, everyMs: number, firstAfterMs: number): () => void {
  const first = setTimeout(run, firstAfterMs)
  const timer = setInterval(run, everyMs)
  first.unref()
  timer.unref()
  return () => { clearTimeout(first); clearInterval(timer) }
}
