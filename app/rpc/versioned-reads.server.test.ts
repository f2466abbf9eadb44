import { brotliDecompressSync, gunzipSync } from 'node:zlib'
import { describe, expect, test } from 'vitest'
import { database } from '~/db/client.server'
import { signedInBrowser } from '../../tests/helpers/auth'
import { createComment, createTask, createUser } from '../../tests/helpers/factories'
import { answerThroughRpcRoute, rpcRequest } from '../../tests/helpers/rpc'
import { builtAnswersCache, compressedAnswer } from './versioned-reads.server'

const bytes = (text: string) => new TextEncoder().encode(text) as Uint8Array<ArrayBuffer>

describe('answers kept under a version', () => {
  test('are bounded by count and by bytes, the least recently used going first', () => {
    const kept = builtAnswersCache(2, 1_000_000)
    for (const etag of ['a', 'b']) kept.set(etag, compressedAnswer(bytes(etag), 'application/json'))
    kept.get('a')
    kept.set('c', compressedAnswer(bytes('c'), 'application/json'))
    expect([kept.get('a'), kept.get('b'), kept.get('c')].map(Boolean)).toEqual([true, false, true])

    const small = builtAnswersCache(100, 64 * 1024)
    const answer = () => compressedAnswer(bytes('x'.repeat(3000)), 'application/json')
    for (let i = 0; i < 100; i++) small.set(String(i), answer())
    const left = Array.from({ length: 100 }, (_, i) => small.get(String(i))).filter(Boolean)
    expect(left.length).toBeGreaterThan(0)
    expect(left.length).toBeLessThan(100)
    // One answer larger than a sixteenth of the budget is not kept at all.
    small.set('huge', compressedAnswer(bytes(JSON.stringify(Array.from({ length: 4000 }, (_, i) => i))), 'x'))
    expect(small.get('huge')).toBeUndefined()
  })
})

describe('a versioned read over the door', () => {
  test('comes compressed once, in the encoding the caller accepts, with the same bytes inside', async () => {
    const db = database()
    const owner = await createUser(db)
    const task = await createTask(db, { userId: owner.id })
    for (let i = 0; i < 20; i++) {
      await createComment(db, {
        taskId: task.id,
        userId: owner.id,
        content: `Point ${i}: ${'words '.repeat(20)}`,
      })
    }
    const browser = await signedInBrowser(db, owner.id)
    const read = async (acceptEncoding?: string) => {
      const headers: Record<string, string> = { Cookie: browser.cookie }
      if (acceptEncoding) headers['Accept-Encoding'] = acceptEncoding
      const response = await answerThroughRpcRoute(
        rpcRequest('comments/getComments', { taskId: task.id }, { method: 'GET', headers }),
      )
      const body = Buffer.from(await response.arrayBuffer())
      return { encoding: response.headers.get('Content-Encoding'), vary: response.headers.get('Vary'), body }
    }
    const plain = await read()
    expect(plain.encoding).toBeNull()
    expect(plain.vary).toBe('Accept-Encoding')
    const br = await read('gzip, deflate, br')
    expect(br.encoding).toBe('br')
    expect(brotliDecompressSync(br.body)).toEqual(plain.body)
    const gzip = await read('br;q=0, gzip')
    expect(gzip.encoding).toBe('gzip')
    expect(gunzipSync(gzip.body)).toEqual(plain.body)
  })

  test.each(['__proto__', 'constructor', 'comments/__proto__'])(
    'a path named like an object property (%s) is no procedure: 404, never a 500',
    async (path) => {
      const response = await answerThroughRpcRoute(rpcRequest(path, undefined, { method: 'GET' }))
      expect(response.status).toBe(404)
    },
  )
})
