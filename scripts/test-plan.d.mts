// Types of scripts/test-plan.mjs, for the test that reads it (test/deploy/ci.test.ts).
export type PlanGroup = { why: string, paths: string[] }
export const BOTH: PlanGroup[]
export const EMBEDDED_ONLY: string[]
export const NODE24_ONLY: string[]
export const PURE: string[]
export const MODULE_BUDGET_SECONDS: number
export function testFiles(dir?: string): string[]
export function under(file: string, paths: string[]): boolean
export function suitesOf(file: string): ('embedded' | 'postgres')[]
export function suiteFiles(suite: 'embedded' | 'postgres'): string[]
export function problems(): string[]
export function moduleOf(file: string): string
export function budgetReport(durationFiles: string[]): { lines: string[], over: string[] }
