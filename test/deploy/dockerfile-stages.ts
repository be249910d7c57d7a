// The Dockerfile parsed with dockerfile-ast and cut into its stages, for the tests that check it and run it.
import assert from 'node:assert/strict'
import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { DockerfileParser, type Instruction } from 'dockerfile-ast'
import { until } from '../helpers/wait.ts'

export const ROOT = join(import.meta.dirname, '../..')

export type Stage = { name: string | null, image: string | null, instructions: Instruction[] }

export function dockerfileStages(path = join(ROOT, 'Dockerfile')): { stages: Stage[], preamble: Instruction[] } {
  const dockerfile = DockerfileParser.parse(readFileSync(path, 'utf8'))
  const stages: Stage[] = []
  const preamble: Instruction[] = []
  for (const instruction of dockerfile.getInstructions()) {
    if (instruction.getKeyword() === 'FROM') {
      const [image, as, name] = instruction.getArguments().map((a) => a.getValue())
      stages.push({ name: as?.toUpperCase() === 'AS' ? name ?? null : null, image: image ?? null, instructions: [] })
    } else if (stages.length) {
      stages.at(-1)!.instructions.push(instruction)
    } else {
      preamble.push(instruction)
    }
  }
  return { stages, preamble }
}

export const keyword = (stage: Stage, word: string) => stage.instructions.filter((i) => i.getKeyword() === word)

/** The arguments of an exec-form instruction (`CMD ["node", "x"]`), or undefined for the shell form. */
export function execForm(instruction: Instruction): string[] | undefined {
  const raw = instruction.getArgumentsContent()?.trim() ?? ''
  if (!raw.startsWith('[')) return undefined
  const parsed: unknown = JSON.parse(raw)
  return Array.isArray(parsed) && parsed.every((s) => typeof s === 'string') ? parsed : undefined
}

/** `KEY=value` pairs of a stage's ENV (or ARG) instructions, in order. */
export function properties(stage: Stage, word: 'ENV' | 'ARG'): Map<string, string | null> {
  const out = new Map<string, string | null>()
  for (const instruction of keyword(stage, word)) {
    for (const p of (instruction as unknown as { getProperties(): { getName(): string, getValue(): string | null }[] }).getProperties()) {
      out.set(p.getName(), p.getValue())
    }
  }
  return out
}

/** dist/ as the build stage makes it (built only when missing or older than the sources). */
export function buildDist(): void {
  const built = spawnSync(process.execPath, [join(ROOT, 'scripts/build.mjs'), '--if-stale'], { cwd: ROOT, encoding: 'utf8', timeout: 240_000 })
  assert.equal(built.status, 0, `npm run build failed:\n${built.stderr}`)
}

export type Started = { child: ChildProcess, base: string, output: () => string }

/** Runs `node …args` as the image's CMD does and waits for its "Server listening at" line. */
export async function startListening(args: string[], opts: { cwd: string, env: NodeJS.ProcessEnv }, ms: number): Promise<Started> {
  const child = spawn(process.execPath, args, { ...opts, stdio: ['ignore', 'pipe', 'pipe'] })
  let out = ''
  child.stdout!.on('data', (d) => { out += d })
  child.stderr!.on('data', (d) => { out += d })
  const base = await until('the "Server listening at" line', () => {
    if (child.exitCode !== null) throw new Error(`exited ${child.exitCode}:\n${out}`)
    return /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(out)?.[1]
  }, ms).catch((err: unknown) => { child.kill('SIGKILL'); throw err })
  return { child, base, output: () => out }
}
