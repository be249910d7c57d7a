// The Dockerfile parsed with dockerfile-ast and cut into its stages, for the tests that check it and run it.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { DockerfileParser, type Instruction } from 'dockerfile-ast'

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
