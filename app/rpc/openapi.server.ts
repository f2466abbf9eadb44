import { OpenAPIGenerator } from '@orpc/openapi'
import { ZodToJsonSchemaConverter } from '@orpc/zod/zod4'
import type { ProcedureReference } from '~/services/content/compile.server'
import packageJson from '../../package.json'
import { router } from './router.server'

/**
 * The reference of /api/rpc, generated from the router itself by oRPC's OpenAPI generator, so it
 * cannot drift from the procedures (docs/product-rules.md §5). Served as /api/openapi.json and
 * rendered on /docs/rpc. Each path is a procedure's name with dots turned into slashes; its
 * inputs are the schemas the router validates with. On the wire, bodies and the GET `data`
 * parameter travel in oRPC's RPC envelope (`{"json": …}`), which /docs/rpc describes.
 */

const generator = new OpenAPIGenerator({ schemaConverters: [new ZodToJsonSchemaConverter()] })

type OpenApiDocument = Awaited<ReturnType<typeof generator.generate>>

let document: Promise<OpenApiDocument> | undefined

/** The document, generated once per process: the router does not change while it runs. */
export function openApiDocument(): Promise<OpenApiDocument> {
  document ??= generator.generate(router, {
    info: {
      title: 'Threadwork RPC',
      version: packageJson.version,
      description:
        'Every procedure of /api/rpc. Requests and answers use the oRPC RPC protocol: see /docs/rpc.',
    },
    servers: [{ url: '/api/rpc' }],
  })
  // A failure is not kept: the next caller tries again.
  document.catch(() => {
    document = undefined
  })
  return document
}

/** The JSON Schema subset the generator writes for our zod schemas. */
type Schema = {
  type?: string
  enum?: unknown[]
  items?: Schema
  anyOf?: Schema[]
  properties?: Record<string, Schema>
  required?: string[]
  minLength?: number
  maxLength?: number
  minimum?: number
  maximum?: number
  multipleOf?: number
  maxItems?: number
  pattern?: string
  format?: string
  default?: unknown
}

let reference: Promise<ProcedureReference[]> | undefined

/** Every procedure with its method and input fields, for the docs page, built once per process. */
export function rpcReference(): Promise<ProcedureReference[]> {
  reference ??= openApiDocument().then((doc) =>
    Object.values(doc.paths ?? {}).flatMap((item) =>
      (['get', 'post'] as const).flatMap((method) => {
        const operation = item?.[method]
        if (!operation?.operationId) return []
        return [{ name: operation.operationId, method: method.toUpperCase(), input: inputFields(operation) }]
      }),
    ),
  )
  reference.catch(() => {
    reference = undefined
  })
  return reference
}

type Operation = NonNullable<NonNullable<OpenApiDocument['paths']>[string]>['get']

function inputFields(operation: NonNullable<Operation>): ProcedureReference['input'] {
  const body = operation.requestBody
  if (body && 'content' in body) {
    const schema = body.content['application/json']?.schema as Schema | undefined
    const required = new Set(schema?.required ?? [])
    return Object.entries(schema?.properties ?? {}).map(([name, field]) =>
      fieldOf(name, field, required.has(name)),
    )
  }
  return (operation.parameters ?? []).flatMap((parameter) =>
    'name' in parameter
      ? [fieldOf(parameter.name, parameter.schema as Schema, parameter.required === true)]
      : [],
  )
}

function fieldOf(name: string, schema: Schema, isRequired: boolean): ProcedureReference['input'][number] {
  // A nullable field is `anyOf` its value and null: the rules are the value's.
  const value = schema.anyOf?.find((member) => member.type !== 'null') ?? schema
  const rules: string[] = []
  if (value.minLength !== undefined && value.minLength > 1)
    rules.push(`at least ${value.minLength} characters`)
  if (value.maxLength !== undefined) rules.push(`at most ${value.maxLength} characters`)
  if (value.minimum !== undefined && value.maximum !== undefined)
    rules.push(`${value.minimum} to ${value.maximum}`)
  if (value.maxItems !== undefined) rules.push(`at most ${value.maxItems} items`)
  if (value.pattern === '^\\d{4}-\\d{2}-\\d{2}$') rules.push('YYYY-MM-DD')
  const fallback = schema.default ?? value.default
  if (fallback !== undefined && !(Array.isArray(fallback) && fallback.length === 0)) {
    rules.push(`default ${JSON.stringify(fallback)}`)
  }
  return { name, type: typeOf(schema), isRequired, rules }
}

function typeOf(schema: Schema): string {
  if (schema.enum) return schema.enum.map((value) => JSON.stringify(value)).join(' | ')
  if (schema.anyOf) return [...new Set(schema.anyOf.map(typeOf))].join(' | ')
  if (schema.type === 'array') return `${schema.items ? typeOf(schema.items) : 'unknown'}[]`
  if (schema.type === 'number' && schema.multipleOf === 1) return 'integer'
  if (schema.type === 'object') return 'object'
  return schema.type ?? 'unknown'
}
