// A tool's JSON Schema as the SDK takes it (a Standard Schema that validates and renders back to JSON Schema),
// made once per schema and kept for every later request's server.
import {
  fromJsonSchema, type JsonSchemaType, type JsonSchemaValidator, type jsonSchemaValidator, type StandardSchemaWithJSON,
} from '@modelcontextprotocol/server'
import type { JsonSchema } from './json-schema.ts'

const checkedBySdk = new WeakMap<JsonSchema, StandardSchemaWithJSON>()
const declaredOnly = new WeakMap<JsonSchema, StandardSchemaWithJSON>()

/** The SDK validates the tool's arguments (or its result) against the schema. */
export function checked(schema: JsonSchema): StandardSchemaWithJSON {
  let s = checkedBySdk.get(schema)
  if (!s) checkedBySdk.set(schema, s = fromJsonSchema(schema as JsonSchemaType))
  return s
}

/**
 * The schema declared, its checking left to the tool: for an input the service validates itself, so that a tool
 * refuses bad arguments with the API's own 422 items rather than the SDK's message.
 */
export function declared(schema: JsonSchema): StandardSchemaWithJSON {
  let s = declaredOnly.get(schema)
  if (!s) declaredOnly.set(schema, s = fromJsonSchema(schema as JsonSchemaType, CHECKED_BY_THE_TOOL))
  return s
}

const CHECKED_BY_THE_TOOL: jsonSchemaValidator = {
  getValidator<T>(): JsonSchemaValidator<T> {
    return (input) => ({ valid: true, data: input as T, errorMessage: undefined })
  },
}
