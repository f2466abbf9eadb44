import { ORPCError } from '@orpc/client'
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest'
import type { CommentView } from '~/services/comment-views.server'
import { type PageVisibility, startPolling } from '~/utils/polling'
import { COMMENT_POLL_MS, isTaskGone, pollComments } from './live-comments'

const visiblePage: PageVisibility = {
  visibilityState: 'visible',
  addEventListener: () => {},
  removeEventListener: () => {},
}

describe('isTaskGone', () => {
  test('NOT_FOUND, as the server answers for a deleted or unshared task', () => {
    expect(isTaskGone(new ORPCError('NOT_FOUND', { status: 404, message: 'Task not found' }))).toBe(true)
  })

  test.each([
    ['a server error', new ORPCError('INTERNAL_SERVER_ERROR', { status: 500 })],
    ['a rate limit', new ORPCError('TOO_MANY_REQUESTS', { status: 429 })],
    ['a network failure', new TypeError('Failed to fetch')],
  ])('not %s, which the next poll may get past', (_label, error) => {
    expect(isTaskGone(error)).toBe(false)
  })
})

describe('polling the comments of a task that goes away', () => {
  beforeEach(() => {
    vi.useFakeTimers({ now: 0 })
    vi.spyOn(console, 'error').mockImplementation(() => {})
  })
  afterEach(() => {
    vi.useRealTimers()
    vi.restoreAllMocks()
  })

  test('comments are handed on and polling goes on', async () => {
    const onComments = vi.fn()
    const outcome = await pollComments(
      't1',
      new AbortController().signal,
      { onComments, onGone: vi.fn() },
      async () => [] as CommentView[],
    )
    expect(outcome).toBeUndefined()
    expect(onComments).toHaveBeenCalledWith([])
  })

  test('after a NOT_FOUND it says the task is gone once and asks no more', async () => {
    const reads: number[] = []
    let isDeleted = false
    const read = async () => {
      reads.push(Date.now())
      if (isDeleted) throw new ORPCError('NOT_FOUND', { status: 404, message: 'Task not found' })
      return [] as CommentView[]
    }
    const onGone = vi.fn()
    const stop = startPolling(
      (signal) => pollComments('t1', signal, { onComments: () => {}, onGone }, read),
      COMMENT_POLL_MS,
      visiblePage,
    )
    await vi.advanceTimersByTimeAsync(2000)
    isDeleted = true
    await vi.advanceTimersByTimeAsync(60_000)
    expect(reads).toEqual([0, 2000, 4000])
    expect(onGone).toHaveBeenCalledTimes(1)
    stop()
  })

  test('other failures are retried as before', async () => {
    let reads = 0
    const read = async () => {
      reads += 1
      throw new ORPCError('INTERNAL_SERVER_ERROR', { status: 500 })
    }
    const onGone = vi.fn()
    const stop = startPolling(
      (signal) => pollComments('t1', signal, { onComments: () => {}, onGone }, read),
      COMMENT_POLL_MS,
      visiblePage,
    )
    await vi.advanceTimersByTimeAsync(10_000)
    expect(reads).toBeGreaterThan(3)
    expect(onGone).not.toHaveBeenCalled()
    stop()
  })
})
