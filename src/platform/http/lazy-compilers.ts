// Fastify compiles every route's validator and response serializers while the app starts: with the error
// statuses each route documents, that is a few dozen Ajv and fast-json-stringify compilations, about a
// tenth of the start-up. These factories wrap Fastify's own compilers so each schema is compiled the first
// time a request needs it instead; the result is the same function Fastify would have made. A schema Ajv
// would refuse still fails the tests, which exercise every route (the routes' schemas are fixed code).
import { AjvCompiler } from '@fastify/ajv-compiler'
import { SerializerSelector } from '@fastify/fast-json-stringify-compiler'
import type { FastifyServerOptions } from 'fastify'

type Compilers = NonNullable<NonNullable<FastifyServerOptions['schemaController']>['compilersFactory']>

type Compile<F> = (routeSchema: unknown) => F
type Factory<F> = (externalSchemas: unknown, options: unknown) => Compile<F>

type Validator = ((data: unknown) => unknown) & { errors?: unknown }

export function lazyValidators(): NonNullable<Compilers['buildValidator']> {
  const build = AjvCompiler() as unknown as Factory<Validator>
  const factory: Factory<Validator> = (externalSchemas, options) => {
    const compile = build(externalSchemas, options)
    return (routeSchema) => {
      let compiled: Validator | undefined
      // Fastify reads the failures from the function it called (`fn.errors`), so pass them on.
      const validate: Validator = (data) => {
        compiled ??= compile(routeSchema)
        const result = compiled(data)
        validate.errors = compiled.errors
        return result
      }
      return validate
    }
  }
  return factory as unknown as NonNullable<Compilers['buildValidator']>
}

export function lazySerializers(): NonNullable<Compilers['buildSerializer']> {
  const build = SerializerSelector() as unknown as Factory<(data: unknown) => string>
  const factory: Factory<(data: unknown) => string> = (externalSchemas, options) => {
    const compile = build(externalSchemas, options)
    return (routeSchema) => {
      let compiled: ((data: unknown) => string) | undefined
      return (data) => (compiled ??= compile(routeSchema))(data)
    }
  }
  return factory as unknown as NonNullable<Compilers['buildSerializer']>
}
