import { describe, expect, test } from 'vitest'
import { countWords, plainText, readingTime, snippet } from '~/services/content/text'

describe('plainText', () => {
  test('keeps what a reader reads and drops the markup', () => {
    const mdx = [
      "import { X } from './x'",
      '## A *heading*',
      '',
      'A [link](https://example.com) and ![an image](/a.png) and `code`.',
      '',
      '<Note kind="planned">Inside a component.</Note>',
      '',
      '| a | b |',
      '|---|---|',
      '| one | two |',
      '',
      '```ts',
      'const DATABASE_URL = 1',
      '```',
    ].join('\n')

    expect(plainText(mdx)).toBe(
      'A heading A link and an image and code . Inside a component. a b one two const DATABASE_URL = 1',
    )
  })

  test('keeps underscores inside names but drops _emphasis_ markers', () => {
    expect(plainText('Set _this_ and SESSION_SECRET.')).toBe('Set this and SESSION_SECRET.')
  })
})

describe('reading time', () => {
  test('counts words, not punctuation', () => {
    expect(countWords('one, two — three . 4')).toBe(4)
  })

  test.each([
    [0, '1 min read'],
    [199, '1 min read'],
    [200, '1 min read'],
    [201, '2 min read'],
    [599, '3 min read'],
    [600, '3 min read'],
    [601, '4 min read'],
  ])('%i words → %s', (words, expected) => {
    expect(readingTime(words)).toBe(expected)
  })
})

describe('snippet', () => {
  const text = `${'lead '.repeat(40)}the volume keeps the database ${'tail '.repeat(40)}`.trim()

  test('cuts around the first match at word boundaries, with ellipses, and marks every match', () => {
    const parts = snippet(text, ['volume', 'database'], 30)

    const joined = parts.map((part) => part.text).join('')
    expect(joined.startsWith('…')).toBe(true)
    expect(joined.endsWith('…')).toBe(true)
    // Whole words only: every word of the excerpt is a word of the text.
    const excerptWords = joined.replaceAll('…', '').trim().split(' ')
    expect(
      excerptWords.every((word) => ['lead', 'the', 'volume', 'keeps', 'database', 'tail'].includes(word)),
    ).toBe(true)
    expect(parts.filter((part) => part.isMatch).map((part) => part.text)).toEqual(['volume', 'database'])
  })

  test('matches case-insensitively and treats terms as text, not patterns', () => {
    expect(snippet('Use a.b or VOLUME here', ['volume', 'a.b'])).toEqual([
      { text: 'Use ', isMatch: false },
      { text: 'a.b', isMatch: true },
      { text: ' or ', isMatch: false },
      { text: 'VOLUME', isMatch: true },
      { text: ' here', isMatch: false },
    ])
  })

  test('without a match it is the start of the text', () => {
    expect(snippet('short text', ['nothing'])).toEqual([{ text: 'short text', isMatch: false }])
  })
})
