import { describe, expect, test } from 'vitest'
import {
  claimUnseenMentions,
  type Mention,
  type MentionStore,
  mentionStore,
  mentionToastText,
  SEEN_MENTIONS_LIMIT,
  seenMentionsKey,
  taskHref,
} from './mention-notifications'

/** A stand-in for localStorage, shared the way two tabs of one browser share it. */
function memoryStorage(): MentionStore & { items: Map<string, string> } {
  const items = new Map<string, string>()
  return {
    items,
    getItem: (key) => items.get(key) ?? null,
    setItem: (key, value) => {
      items.set(key, value)
    },
  }
}

function mention(id: string): Mention {
  return { id, taskId: `task-${id}`, fromUserName: 'Grace', content: `About ${id}` }
}

function ids(mentions: Mention[]) {
  return mentions.map((each) => each.id)
}

describe('mentionToastText', () => {
  test('an assignment names who assigned and the task (its content is the title)', () => {
    expect(
      mentionToastText({ fromUserName: 'Grace Hopper', content: 'Plan the offsite', type: 'assignment' }),
    ).toBe('Grace Hopper assigned you “Plan the offsite”')
  })

  test('names the sender and quotes the comment with an ellipsis', () => {
    expect(mentionToastText({ fromUserName: 'Grace Hopper', content: '@Ada can you review this?' })).toBe(
      'Grace Hopper mentioned you in a comment: "@Ada can you review this?..."',
    )
  })

  test('cuts the comment after its first 50 characters', () => {
    const content = `${'a'.repeat(50)}SHOULD NOT SHOW`
    expect(mentionToastText({ fromUserName: 'Grace', content })).toBe(
      `Grace mentioned you in a comment: "${'a'.repeat(50)}..."`,
    )
  })

  test('counts an emoji as one character and never cuts one in half', () => {
    const content = `${'b'.repeat(49)}🔥🔥 and more`
    expect(mentionToastText({ fromUserName: 'Grace', content })).toBe(
      `Grace mentioned you in a comment: "${'b'.repeat(49)}🔥..."`,
    )
  })
})

describe('claimUnseenMentions', () => {
  test('returns every mention the first time, and none when the same list comes again', () => {
    const storage = memoryStorage()
    const unread = [mention('m2'), mention('m1')]
    expect(ids(claimUnseenMentions(storage, 'ada', unread))).toEqual(['m2', 'm1'])
    expect(claimUnseenMentions(storage, 'ada', unread)).toEqual([])
  })

  test('returns only what is new since the last poll', () => {
    const storage = memoryStorage()
    claimUnseenMentions(storage, 'ada', [mention('m1')])
    expect(ids(claimUnseenMentions(storage, 'ada', [mention('m3'), mention('m2'), mention('m1')]))).toEqual([
      'm3',
      'm2',
    ])
  })

  test('remembers per user, under the documented key, across reloads and tabs', () => {
    const storage = memoryStorage()
    claimUnseenMentions(storage, 'ada', [mention('m1')])
    expect(JSON.parse(storage.getItem(seenMentionsKey('ada')) ?? '')).toEqual(['m1'])
    expect(seenMentionsKey('ada')).toBe('threadwork:seen-mentions:ada')
    // Another tab (or the page after a reload) reads the same storage.
    expect(claimUnseenMentions(storage, 'ada', [mention('m1')])).toEqual([])
    // Someone else signing in on this browser has seen nothing yet.
    expect(ids(claimUnseenMentions(storage, 'grace', [mention('m1')]))).toEqual(['m1'])
  })

  test(`keeps at most ${SEEN_MENTIONS_LIMIT} ids, the most recent`, () => {
    const storage = memoryStorage()
    for (let n = 1; n <= SEEN_MENTIONS_LIMIT + 50; n++)
      claimUnseenMentions(storage, 'ada', [mention(`m${n}`)])
    const remembered = JSON.parse(storage.getItem(seenMentionsKey('ada')) ?? '') as string[]
    expect(remembered).toHaveLength(SEEN_MENTIONS_LIMIT)
    expect(remembered[0]).toBe(`m${SEEN_MENTIONS_LIMIT + 50}`)
    expect(remembered).not.toContain('m50')
    expect(remembered).toContain('m51')
  })

  test('never forgets a mention the server still lists as unread, however many were seen since', () => {
    const storage = memoryStorage()
    const stillUnread = mention('old-unread')
    claimUnseenMentions(storage, 'ada', [stillUnread])
    for (let n = 1; n <= SEEN_MENTIONS_LIMIT + 10; n++) {
      claimUnseenMentions(storage, 'ada', [mention(`m${n}`), stillUnread])
    }
    expect(claimUnseenMentions(storage, 'ada', [stillUnread])).toEqual([])
  })

  test('starts afresh from a stored value it cannot read', () => {
    const storage = memoryStorage()
    storage.setItem(seenMentionsKey('ada'), 'not json')
    expect(ids(claimUnseenMentions(storage, 'ada', [mention('m1')]))).toEqual(['m1'])
    storage.setItem(seenMentionsKey('ada'), '{"m1": true}')
    expect(ids(claimUnseenMentions(storage, 'ada', [mention('m1')]))).toEqual(['m1'])
  })

  test('leaves the storage alone when nothing is new', () => {
    const storage = memoryStorage()
    expect(claimUnseenMentions(storage, 'ada', [])).toEqual([])
    expect(storage.items.size).toBe(0)
  })
})

describe('mentionStore', () => {
  test('reads and writes the browser storage while it works', () => {
    const storage = memoryStorage()
    const store = mentionStore(() => storage)
    store.setItem('k', 'v')
    expect(storage.getItem('k')).toBe('v')
    storage.setItem('k', 'from another tab')
    expect(store.getItem('k')).toBe('from another tab')
  })

  test('a blocked or full storage falls back to memory, so a mention still toasts only once', () => {
    const blocked = mentionStore(() => {
      throw new DOMException('The operation is insecure.', 'SecurityError')
    })
    expect(ids(claimUnseenMentions(blocked, 'ada', [mention('m1')]))).toEqual(['m1'])
    expect(claimUnseenMentions(blocked, 'ada', [mention('m1')])).toEqual([])

    const full = mentionStore(() => ({
      getItem: () => null,
      setItem: () => {
        throw new DOMException('Quota exceeded', 'QuotaExceededError')
      },
    }))
    expect(ids(claimUnseenMentions(full, 'ada', [mention('m1')]))).toEqual(['m1'])
    expect(claimUnseenMentions(full, 'ada', [mention('m1')])).toEqual([])
  })
})

describe('taskHref', () => {
  test('opens the task on the current page, keeping its other search params', () => {
    expect(taskHref({ pathname: '/task', search: '?filter=completed' }, 't1')).toBe(
      '/task?filter=completed&task=t1',
    )
    expect(taskHref({ pathname: '/docs/intro', search: '' }, 't1')).toBe('/docs/intro?task=t1')
  })

  test('replaces the task of an open modal and drops that modal’s comment views', () => {
    expect(taskHref({ pathname: '/task', search: '?task=t0&view=reply&comment=c9&filter=all' }, 't1')).toBe(
      '/task?task=t1&filter=all',
    )
  })
})
