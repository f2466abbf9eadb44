import { describe, expect, test } from 'vitest'
import { isSubmissionOf } from '~/utils/pending'

function form(fields: Record<string, string>) {
  const formData = new FormData()
  for (const [name, value] of Object.entries(fields)) formData.set(name, value)
  return formData
}

describe('isSubmissionOf', () => {
  test.each([
    ['the bare path', '/login'],
    // Where the header's Sign In link leads: the form posts to the page's own URL, search and all.
    ['the path with the page’s search', '/login?redirect=%2Ftask%3Ftask%3Dabc'],
    ['a trailing slash', '/login/'],
  ])('a sign-in post to %s is the sign-in form’s', (_label, formAction) => {
    expect(isSubmissionOf({ formAction, formMethod: 'POST' }, { formAction: '/login' })).toBe(true)
    expect(isSubmissionOf({ formAction: '/login', formMethod: 'POST' }, { formAction })).toBe(true)
  })

  test('another path is another form’s', () => {
    expect(isSubmissionOf({ formAction: '/signup', formMethod: 'POST' }, { formAction: '/login' })).toBe(
      false,
    )
    expect(
      isSubmissionOf({ formAction: '/login/callback', formMethod: 'POST' }, { formAction: '/login' }),
    ).toBe(false)
  })

  test('the index route is told from its parent by `?index`', () => {
    expect(isSubmissionOf({ formAction: '/?index', formMethod: 'POST' }, { formAction: '/?index' })).toBe(
      true,
    )
    expect(isSubmissionOf({ formAction: '/?index', formMethod: 'POST' }, { formAction: '/' })).toBe(false)
  })

  test('methods compare in any case; POST unless told', () => {
    expect(isSubmissionOf({ formAction: '/task', formMethod: 'post' }, { formAction: '/task' })).toBe(true)
    // A GET form (the task filter) submitting is a navigation, not this form's post.
    expect(isSubmissionOf({ formAction: '/task', formMethod: 'GET' }, { formAction: '/task' })).toBe(false)
    expect(
      isSubmissionOf({ formAction: '/task', formMethod: 'GET' }, { formAction: '/task', formMethod: 'get' }),
    ).toBe(true)
  })

  test('an intent names one of the forms posting to the same action', () => {
    const revoke = {
      formAction: '/settings',
      formMethod: 'POST',
      formData: form({ intent: 'revoke-session' }),
    }
    expect(isSubmissionOf(revoke, { formAction: '/settings', intent: 'revoke-session' })).toBe(true)
    expect(isSubmissionOf(revoke, { formAction: '/settings', intent: 'update-profile' })).toBe(false)
    expect(isSubmissionOf(revoke, { formAction: '/settings' })).toBe(true)
  })

  test('fields tell apart the rows of one list', () => {
    const submission = {
      formAction: '/settings',
      formMethod: 'POST',
      formData: form({ intent: 'revoke-session', sessionId: 's1' }),
    }
    const row = (sessionId: string) => ({
      formAction: '/settings',
      intent: 'revoke-session',
      fields: { sessionId },
    })
    expect(isSubmissionOf(submission, row('s1'))).toBe(true)
    expect(isSubmissionOf(submission, row('s2'))).toBe(false)
  })

  test('nothing submitting matches nothing', () => {
    expect(isSubmissionOf({}, { formAction: '/login' })).toBe(false)
    expect(
      isSubmissionOf({ formAction: '/login', formMethod: 'POST' }, { formAction: '/login', intent: 'x' }),
    ).toBe(false)
  })
})
