import { describe, expect, test } from 'vitest'
import type { Mentionable } from '~/utils/mentions'
import { commentPlaceholder } from './comments-section'

const owner: Mentionable = { id: 'u1', name: 'Ada Lovelace', email: 'ada@example.com', image: null }

describe('the new-comment placeholder says why the @ picker is empty', () => {
  test('someone to mention: the invitation to mention them', () => {
    expect(commentPlaceholder(false, [owner])).toBe('Add a comment... Type @ to mention someone')
  })

  test('a public task: the text saying mentions are off, since public tasks allow none', () => {
    expect(commentPlaceholder(true, [])).toBe('Add a comment... (Mentions disabled for public tasks)')
  })

  test('a private task shared with nobody: not "public", but how to get someone to mention', () => {
    expect(commentPlaceholder(false, [])).toBe('Add a comment... (Share this task to mention people)')
  })
})
