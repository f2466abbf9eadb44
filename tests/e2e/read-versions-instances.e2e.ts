import { type ApiClient, clientFrom, signUpThroughApi } from './api-client'
import { withTwoInstances } from './app-process'
import { expect, test } from './fixtures'
import { addCommentThroughApi, createTaskThroughApi } from './rpc-calls'

/**
 * Two instances of the built server on one database file: the ETag of a versioned read comes
 * from the database, not from either process, so both give the same one, and a change made
 * through one — a comment, a rename — moves it on the other, which then answers the new body
 * instead of a 304 (docs/decisions/028-reads-versioned-by-the-event-log.md).
 */

test.skip(({ javaScriptEnabled }) => !javaScriptEnabled, 'no browser involved; runs once')

type Discussion = { status: number; etag: string; names: string[]; texts: string[] }

async function readDiscussion(client: ApiClient, taskId: string, etag?: string): Promise<Discussion> {
  const data = encodeURIComponent(JSON.stringify({ json: { taskId } }))
  const response = await client.get(
    `/api/rpc/comments/getComments?data=${data}`,
    etag ? { 'If-None-Match': etag } : {},
  )
  const comments =
    response.status === 200
      ? (JSON.parse(response.body) as { json: { userName: string; content: string }[] }).json
      : []
  return {
    status: response.status,
    etag: String(response.headers.etag ?? ''),
    names: comments.map((comment) => comment.userName),
    texts: comments.map((comment) => comment.content),
  }
}

test('a change made through instance A moves the ETag of a read on instance B', async () =>
  withTwoInstances(async (a, b) => {
    const email = `ada-${Date.now()}@example.test`
    const onA = await signUpThroughApi(a.origin, {
      name: 'Ada',
      email,
      password: 'correct horse battery staple',
    })
    const ada = { name: 'Ada', email, client: onA }
    const onB = clientFrom(b.origin)
    for (const [name, value] of onA.cookies) onB.cookies.set(name, value)

    const { id: taskId } = await createTaskThroughApi(ada, { text: 'Plan the release' })
    await addCommentThroughApi(ada, { taskId, content: 'First point.' })

    const first = await readDiscussion(onB, taskId)
    expect(first.status).toBe(200)
    expect(first.texts).toEqual(['First point.'])
    // The version lives in the database: both instances name the same state with the same tag.
    expect((await readDiscussion(onA, taskId)).etag).toBe(first.etag)
    expect((await readDiscussion(onB, taskId, first.etag)).status).toBe(304)

    await addCommentThroughApi(ada, { taskId, content: 'Second point.' })
    const afterComment = await readDiscussion(onB, taskId, first.etag)
    expect(afterComment.status).toBe(200)
    expect(afterComment.etag).not.toBe(first.etag)
    expect(afterComment.texts).toEqual(['First point.', 'Second point.'])

    const token = await onA.csrf()
    const renamed = await onA.post(
      '/api/auth/update-user',
      { json: { name: 'Ada L.' } },
      { 'x-csrf-token': token },
    )
    expect(renamed.status).toBe(200)
    const afterRename = await readDiscussion(onB, taskId, afterComment.etag)
    expect(afterRename.status).toBe(200)
    expect(afterRename.etag).not.toBe(afterComment.etag)
    expect(afterRename.names).toEqual(['Ada L.', 'Ada L.'])
  }))
