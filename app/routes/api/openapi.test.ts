import { describe, expect, test } from 'vitest'
import { router } from '~/rpc/router.server'
import { procedureNames } from '../../../tests/helpers/rpc'
import { loader } from './openapi'

/** GET /api/openapi.json: the reference of /api/rpc, generated from its router. */

type Document = {
  openapi: string
  paths: Record<string, Record<string, { operationId: string; requestBody?: RequestBody }>>
}
type RequestBody = { content: { 'application/json': { schema: { properties: Record<string, unknown> } } } }

async function fetchDocument() {
  const response = await loader()
  expect(response.status).toBe(200)
  expect(response.headers.get('Content-Type')).toContain('application/json')
  return (await response.json()) as Document
}

describe('GET /api/openapi.json', () => {
  test('lists every procedure of the router, each once, at its RPC path', async () => {
    const document = await fetchDocument()
    const operations = Object.entries(document.paths).flatMap(([path, item]) =>
      Object.values(item).map((operation) => ({ path, name: operation.operationId })),
    )

    expect(document.openapi).toMatch(/^3\./)
    expect(operations.map((operation) => operation.name).sort()).toEqual(procedureNames(router).sort())
    for (const { path, name } of operations) expect(path).toBe(`/${name.replaceAll('.', '/')}`)
  })

  test("task.create's input has every field a task is created with, dueDate included", async () => {
    const document = await fetchDocument()
    const body = document.paths['/task/create']?.post?.requestBody
    const fields = Object.keys(body?.content['application/json'].schema.properties ?? {})

    expect(fields).toEqual(
      expect.arrayContaining(['text', 'details', 'priority', 'hrs', 'dueDate', 'sharedWith']),
    )
  })

  test('reads are GET and mutations POST, as the router declares them', async () => {
    const document = await fetchDocument()
    expect(Object.keys(document.paths['/task/getAll'] ?? {})).toEqual(['get'])
    expect(Object.keys(document.paths['/task/create'] ?? {})).toEqual(['post'])
  })
})
