// Work every instance repeats on its own (retention passes): once soon after start, then every period. The
// timers never keep a process alive; the function returned stops both.
export function repeat(run: () => unknown, everyMs: number, firstAfterMs: number): () => void {
  const first = setTimeout(run, firstAfterMs)
  const timer = setInterval(run, everyMs)
  first.unref()
  timer.unref()
  return () => { clearTimeout(first); clearInterval(timer) }
}
