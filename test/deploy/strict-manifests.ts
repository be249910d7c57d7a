// Strict checking of Kubernetes manifests: kubernetes-models' runtime validation (generated from the Kubernetes
// OpenAPI schema) checks types and required fields but lets an unknown field through, so a misspelt one
// (`topologySpreadConstrains`) would be silently ignored by the cluster too. Its TypeScript interfaces, generated
// from the same schema, list every field: each manifest is written as an object literal of its kind's interface
// in a file that exists only in memory, and the compiler's excess-property check names a field the schema does
// not have, at any depth, or a value of the wrong type (the first such problem of each manifest).
import { join } from 'node:path'
import ts from 'typescript'
import { ROOT } from './dockerfile-stages.ts'

export type Manifest = { apiVersion: string, kind: string, metadata: { name: string }, [key: string]: unknown }

/** One message per field or value the schema refuses, naming the manifest; empty when every manifest conforms. */
export function schemaViolations(manifests: { label: string, manifest: Manifest }[]): string[] {
  const file = join(ROOT, 'test/deploy/.strict-manifests.virtual.ts')
  // Imports first, then one declaration per manifest, whose offset in the text says which a diagnostic is about.
  let text = manifests.map(({ manifest: { apiVersion, kind } }, i) =>
    // kubernetes-models' layout: kubernetes-models/<apiVersion>/<Kind> exports I<Kind> (core types under v1/).
    `import type { I${kind} as T${i} } from 'kubernetes-models/${apiVersion}/${kind}'\n`).join('')
  const starts: { offset: number, label: string }[] = []
  manifests.forEach(({ label, manifest }, i) => {
    starts.push({ offset: text.length, label })
    text += `export const m${i}: T${i} = ${JSON.stringify(manifest, null, 1)}\n`
  })
  const options: ts.CompilerOptions = {
    strict: true, noEmit: true, skipLibCheck: true, target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext, types: [],
  }
  const host = ts.createCompilerHost(options)
  const { getSourceFile, fileExists, readFile } = host
  host.getSourceFile = (name, version, ...rest) => name === file
    ? ts.createSourceFile(name, text, version) : getSourceFile.call(host, name, version, ...rest)
  host.fileExists = (name) => name === file || fileExists.call(host, name)
  host.readFile = (name) => name === file ? text : readFile.call(host, name)
  const program = ts.createProgram([file], options, host)
  const source = program.getSourceFile(file)!
  return [...program.getSyntacticDiagnostics(source), ...program.getSemanticDiagnostics(source)].map((d) => {
    const label = starts.filter((s) => s.offset <= (d.start ?? 0)).at(-1)?.label ?? 'the imports'
    return `${label}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`
  })
}
