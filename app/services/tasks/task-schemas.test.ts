import { describe, expect, test } from 'vitest'
import {
  MAX_SHARES,
  ShareEmailsSchema,
  splitEmails,
  TaskFieldsSchema,
  TaskUpdateSchema,
} from './task-schemas'

/**
 * The task schemas are what every entry point (the /task forms, the RPC inputs) runs before the service:
 * these cases are the edges a person can type. The service-side rules (own e-mail, parents) and the
 * same edges over RPC are in tasks/writes.server.test.ts and tests/integration/tasks-rpc.test.ts.
 */

const VALID = { text: 'Write the release notes' }

function parseFields(input: Record<string, unknown>) {
  return TaskFieldsSchema.safeParse({ ...VALID, ...input })
}

/** The messages of a failed parse, by field, so a case asserts what the form would show. */
function messagesOf(result: ReturnType<typeof TaskFieldsSchema.safeParse>) {
  if (result.success) throw new Error(`Expected a failure, got ${JSON.stringify(result.data)}`)
  return result.error.issues.map((issue) => ({ path: issue.path.join('.'), message: issue.message }))
}

describe('TaskFieldsSchema', () => {
  test('a new task gets the defaults: medium, Not Started, 1 hour, private, shared with nobody', () => {
    expect(TaskFieldsSchema.parse({ text: 'Plan the sprint' })).toEqual({
      text: 'Plan the sprint',
      priority: 'medium',
      status: 'Not Started',
      hrs: 1,
      isPublic: false,
      sharedWith: [],
    })
  })

  describe('text: 3 to 200 characters after trimming', () => {
    test.each([
      ['2 characters', 'ab', 'Title must be at least 3 characters'],
      ['2 characters inside spaces', '  ab  ', 'Title must be at least 3 characters'],
      ['empty', '', 'Title is required'],
      ['only spaces', '     ', 'Title is required'],
      ['201 characters', 'x'.repeat(201), 'Title must be at most 200 characters'],
    ])('%s is rejected', (_, text, message) => {
      // An empty title fails both checks; the form shows the first, which says what to do.
      const [first, ...rest] = messagesOf(parseFields({ text }))
      expect(first).toEqual({ path: 'text', message })
      for (const issue of rest) expect(issue.path).toBe('text')
    })

    test('missing text is required', () => {
      expect(messagesOf(TaskFieldsSchema.safeParse({}))).toEqual([
        { path: 'text', message: 'Title is required' },
      ])
    })

    test.each([
      ['3 characters', 'abc', 'abc'],
      ['3 characters inside spaces', '  abc  ', 'abc'],
      ['200 characters', 'x'.repeat(200), 'x'.repeat(200)],
      ['200 characters inside spaces', ` ${'x'.repeat(200)} `, 'x'.repeat(200)],
    ])('%s is accepted, trimmed', (_, text, stored) => {
      expect(parseFields({ text })).toMatchObject({ success: true, data: { text: stored } })
    })
  })

  describe('details: at most 500 characters, optional', () => {
    test('500 characters are accepted', () => {
      expect(parseFields({ details: 'd'.repeat(500) })).toMatchObject({
        success: true,
        data: { details: 'd'.repeat(500) },
      })
    })

    test('501 characters are rejected', () => {
      expect(messagesOf(parseFields({ details: 'd'.repeat(501) }))).toEqual([
        { path: 'details', message: 'Details must be at most 500 characters' },
      ])
    })

    test('an empty field means no details', () => {
      const result = TaskFieldsSchema.parse({ ...VALID, details: '' })
      expect(result.details).toBeUndefined()
    })
  })

  describe('refLink: an http(s) URL, optional', () => {
    test.each(['https://example.com/spec', 'http://localhost:3000/x?y=1'])('%s is accepted', (refLink) => {
      expect(parseFields({ refLink })).toMatchObject({ success: true, data: { refLink } })
    })

    test.each(['ftp://x', 'not a url', 'javascript:alert(1)', 'mailto:a@example.com', 'https://'])(
      '%s is rejected',
      (refLink) => {
        expect(messagesOf(parseFields({ refLink }))).toEqual([
          { path: 'refLink', message: 'Link must be an http(s) URL' },
        ])
      },
    )

    test('an empty field means no link', () => {
      expect(TaskFieldsSchema.parse({ ...VALID, refLink: '' }).refLink).toBeUndefined()
    })
  })

  describe('hrs: a whole number from 1 to 8', () => {
    test.each([1, 8, '1', '8', 4])('%s is accepted', (hrs) => {
      expect(parseFields({ hrs })).toMatchObject({ success: true, data: { hrs: Number(hrs) } })
    })

    test.each([0, 9, 1.5, -1, '0', '9', '1.5', 'abc', ''])('%s is rejected', (hrs) => {
      expect(messagesOf(parseFields({ hrs }))).toEqual([
        { path: 'hrs', message: 'Hours must be a whole number from 1 to 8' },
      ])
    })
  })

  describe('priority and status: only their enums', () => {
    test.each(['high', 'medium', 'low'])('priority %s is accepted', (priority) => {
      expect(parseFields({ priority })).toMatchObject({ success: true, data: { priority } })
    })

    test.each(['urgent', 'HIGH', ''])('priority %j is rejected', (priority) => {
      expect(messagesOf(parseFields({ priority }))).toEqual([
        { path: 'priority', message: 'Priority must be high, medium or low' },
      ])
    })

    test.each(['Not Started', 'In Progress', 'Completed'])('status %s is accepted', (status) => {
      expect(parseFields({ status })).toMatchObject({ success: true, data: { status } })
    })

    test.each(['Done', 'completed', 'Backlog', ''])('status %j is rejected', (status) => {
      expect(messagesOf(parseFields({ status }))).toEqual([
        { path: 'status', message: 'Status must be Not Started, In Progress or Completed' },
      ])
    })
  })

  describe('isPublic: a checkbox or a boolean', () => {
    test.each([
      [true, true],
      ['on', true],
      ['true', true],
      [false, false],
      [undefined, false],
    ])('%j reads as %s', (isPublic, expected) => {
      expect(TaskFieldsSchema.parse({ ...VALID, isPublic }).isPublic).toBe(expected)
    })
  })

  describe('sharedWith: valid e-mails, lower-cased, de-duplicated, at most 50', () => {
    test('a typed list is split on commas, spaces and new lines', () => {
      expect(parseFields({ sharedWith: 'a@x.com, b@x.com\nc@x.com; d@x.com' })).toMatchObject({
        success: true,
        data: { sharedWith: ['a@x.com', 'b@x.com', 'c@x.com', 'd@x.com'] },
      })
    })

    test('case is folded and duplicates collapse to one address', () => {
      expect(TaskFieldsSchema.parse({ ...VALID, sharedWith: 'A@x.com, a@X.com' }).sharedWith).toEqual([
        'a@x.com',
      ])
      expect(
        TaskFieldsSchema.parse({ ...VALID, sharedWith: ['Grace@Example.COM', 'grace@example.com'] })
          .sharedWith,
      ).toEqual(['grace@example.com'])
    })

    test.each(['not-an-email', 'a@', '@x.com', 'a@x.com, nope'])('%j is rejected', (sharedWith) => {
      const messages = messagesOf(parseFields({ sharedWith }))
      expect(messages.length).toBeGreaterThan(0)
      for (const issue of messages) {
        expect(issue.path).toMatch(/^sharedWith\.\d+$/)
        expect(issue.message).toBe('Enter valid e-mail addresses')
      }
    })

    test(`${MAX_SHARES} addresses are accepted, ${MAX_SHARES + 1} rejected`, () => {
      const addresses = (n: number) => Array.from({ length: n }, (_, i) => `person${i}@example.com`)
      expect(parseFields({ sharedWith: addresses(MAX_SHARES) })).toMatchObject({ success: true })
      expect(messagesOf(parseFields({ sharedWith: addresses(MAX_SHARES + 1) }))).toEqual([
        { path: 'sharedWith', message: `Share with at most ${MAX_SHARES} people` },
      ])
    })

    test('an empty field shares with nobody', () => {
      expect(TaskFieldsSchema.parse({ ...VALID, sharedWith: '' }).sharedWith).toEqual([])
    })
  })

  test('parentTaskId is optional; an empty field means none', () => {
    expect(TaskFieldsSchema.parse({ ...VALID, parentTaskId: '' }).parentTaskId).toBeUndefined()
    expect(TaskFieldsSchema.parse({ ...VALID, parentTaskId: 'task-1' }).parentTaskId).toBe('task-1')
  })
})

describe('TaskUpdateSchema', () => {
  test('an update names only what changes: absent fields stay absent', () => {
    expect(TaskUpdateSchema.parse({ status: 'Completed' })).toEqual({ status: 'Completed' })
    expect(TaskUpdateSchema.parse({})).toEqual({})
  })

  test('empty details, link and parent clear them', () => {
    expect(TaskUpdateSchema.parse({ details: '', refLink: '', parentTaskId: '' })).toEqual({
      details: null,
      refLink: null,
      parentTaskId: null,
    })
  })

  test('isPublic reads "true"/"on" and "false"', () => {
    expect(TaskUpdateSchema.parse({ isPublic: 'on' }).isPublic).toBe(true)
    expect(TaskUpdateSchema.parse({ isPublic: 'true' }).isPublic).toBe(true)
    expect(TaskUpdateSchema.parse({ isPublic: 'false' }).isPublic).toBe(false)
    expect(TaskUpdateSchema.parse({ isPublic: false }).isPublic).toBe(false)
  })

  test.each([
    ['text', 'ab'],
    ['text', '  ab  '],
    ['text', 'x'.repeat(201)],
    ['details', 'd'.repeat(501)],
    ['refLink', 'ftp://x'],
    ['refLink', 'not a url'],
    ['hrs', 0],
    ['hrs', 9],
    ['hrs', 1.5],
    ['priority', 'urgent'],
    ['status', 'Done'],
    ['sharedWith', 'not-an-email'],
  ])('the same edges as a new task: %s %j is rejected', (field, value) => {
    const result = TaskUpdateSchema.safeParse({ [field]: value })
    expect(result.success).toBe(false)
    expect(result.error?.issues[0]?.path[0]).toBe(field)
  })

  test.each([
    ['text', 'abc'],
    ['text', 'x'.repeat(200)],
    ['details', 'd'.repeat(500)],
    ['hrs', 1],
    ['hrs', 8],
    ['refLink', 'https://example.com'],
  ])('and the same values pass: %s', (field, value) => {
    expect(TaskUpdateSchema.safeParse({ [field]: value }).success).toBe(true)
  })

  test('sharing folds case and duplicates here too', () => {
    expect(TaskUpdateSchema.parse({ sharedWith: 'A@x.com, a@X.com' }).sharedWith).toEqual(['a@x.com'])
  })
})

describe('ShareEmailsSchema (task.share)', () => {
  test('folds case and duplicates', () => {
    expect(ShareEmailsSchema.parse(['A@x.com', 'a@X.com', ' b@x.com '])).toEqual(['a@x.com', 'b@x.com'])
  })

  test('rejects a bad address and more than 50', () => {
    expect(ShareEmailsSchema.safeParse(['ok@x.com', 'bad']).success).toBe(false)
    const many = Array.from({ length: MAX_SHARES + 1 }, (_, i) => `p${i}@x.com`)
    expect(ShareEmailsSchema.safeParse(many).success).toBe(false)
  })
})

describe('splitEmails', () => {
  test('leaves non-strings alone, so arrays from JSON pass through', () => {
    expect(splitEmails(['a@x.com'])).toEqual(['a@x.com'])
    expect(splitEmails(undefined)).toBeUndefined()
  })

  test('drops empty parts', () => {
    expect(splitEmails(' , a@x.com ,, ')).toEqual(['a@x.com'])
  })
})
