import { describe, expect, test } from 'vitest'
import {
  activeMentionQuery,
  findMentions,
  insertMention,
  type Mentionable,
  matchMention,
  mentionNames,
  mentionSegments,
} from './mentions'

function person(name: string, email = `${name.toLowerCase().replace(/ .*/, '')}@example.com`): Mentionable {
  return { id: email, name, email, image: null }
}

const grace = person('Grace Hopper')
const graceShort = person('Grace', 'grace.short@example.com')
const alan = person('Alan Turing')
const zoe = person('Zoë Ōkubo', 'zoe@example.com')
const jeanLuc = person('Jean-Luc Picard', 'jl@example.com')
const users = [alan, grace, graceShort, zoe, jeanLuc]

/** The highlighted parts of a text, as a reader sees them. */
function highlights(content: string, list: Mentionable[] = users) {
  return mentionSegments(content, list)
    .filter((segment) => segment.isMention)
    .map((segment) => segment.text)
}

describe('mentionNames', () => {
  test.each([
    ['hi @Grace Hopper please look', ['Grace Hopper please look']],
    ['@Alan', ['Alan']],
    ['cc @Alan, @Grace.', ['Alan', 'Grace']],
    ['(@Alan) and\n@Grace', ['Alan', 'Grace']],
    ['@Grace   Hopper  ', ['Grace   Hopper']],
    ['write to ada@example.com or grace.h@example.com', []],
    ['an @ alone, @ 5pm, @123', []],
    ['hej @Zoë Ōkubo!', ['Zoë Ōkubo']],
    ['@Jean-Luc', ['Jean']],
  ])('%j', (content, names) => {
    expect(mentionNames(content)).toEqual(names)
  })
})

describe('matchMention', () => {
  test.each([
    ['exact name', 'Alan Turing', alan],
    ['exact name before a case-insensitive one', 'Grace', graceShort],
    ['case-insensitive name', 'alan turing', alan],
    ['case-insensitive, spaces doubled', 'ALAN  turing', alan],
    ['the part starts with a name', 'Alan Turing said so', alan],
    ['the longest name the part starts with', 'Grace Hopper please', grace],
    ['a shorter name when the longer one stops mid-word', 'Grace Hopperson', graceShort],
    ['a name only at a word boundary', 'Alanna', undefined],
    ['a name starting with the part', 'gra', grace],
    ['a name starting with the part, first in list order', 'a', alan],
    ['a name starting with the part’s first words', 'Alan T was right', alan],
    ['unicode name, exact', 'Zoë Ōkubo', zoe],
    ['unicode name, other case', 'ZOË ŌKUBO', zoe],
    ['unicode name, decomposed as typed', 'Zoe\u0308', zoe],
    ['unicode prefix', 'zo', zoe],
    ['a name with a hyphen, from its first word', 'Jean', jeanLuc],
    ['nobody', 'Barbara', undefined],
  ])('%s: %j', (_, part, user) => {
    expect(matchMention(part, users)).toBe(user)
  })

  test('nobody when nobody may be mentioned', () => {
    expect(matchMention('Grace Hopper', [])).toBeUndefined()
  })
})

describe('findMentions', () => {
  test.each([
    ['names with spaces', 'thanks @Grace Hopper and @Alan Turing', [grace, alan]],
    ['in order of first mention', '@alan then @grace hopper then @Alan again', [alan, grace]],
    ['duplicates collapse', '@Grace Hopper @grace hopper @gra', [grace]],
    ['prefix either way', '@Alan Turing said @gra should look', [alan, grace]],
    ['e-mails are not mentions', 'mail grace@example.com or alan@example.com', []],
    ['unicode names', 'ping @Zoë', [zoe]],
    ['a whole name with a hyphen', 'cc @Jean-Luc Picard', [jeanLuc]],
    ['nobody named', '@Barbara @ 5pm', []],
  ])('%s: %j', (_, content, mentioned) => {
    expect(findMentions(content, users)).toEqual(mentioned)
  })

  test('one user once even when listed twice', () => {
    expect(findMentions('@Alan and @alan turing', [alan, { ...alan, id: 'copy' }])).toEqual([alan])
  })

  test('nobody when the list is empty (a public task)', () => {
    expect(findMentions('@Grace Hopper', [])).toEqual([])
  })
})

describe('mentionSegments', () => {
  test.each([
    ['only the matched name', 'hi @Grace Hopper please look', ['@Grace Hopper']],
    ['the longest name', '@Grace Hopper @Grace', ['@Grace Hopper', '@Grace']],
    ['the typed prefix', 'ask @gra about it', ['@gra']],
    ['the first words that begin a name', '@Alan T, right?', ['@Alan T']],
    ['a whole name before a longer name’s start', '@Grace Ho, right?', ['@Grace']],
    ['a name with a hyphen, whole', '@Jean-Luc Picard here', ['@Jean-Luc Picard']],
    ['unicode', '@Zoë Ōkubo: hi', ['@Zoë Ōkubo']],
    ['the first word when nobody matches', '@Barbara Liskov hello', ['@Barbara']],
    ['not e-mails', 'grace@example.com', []],
  ])('%s: %j', (_, content, expected) => {
    expect(highlights(content)).toEqual(expected)
  })

  test('the first word of each @ part when nobody may be mentioned', () => {
    expect(highlights('@Grace Hopper and @Alan Turing', [])).toEqual(['@Grace', '@Alan'])
  })

  test.each([
    '',
    'no mentions at all',
    'hi @Grace Hopper please look\n\n  @alan turing, @gra!\tok',
    '@Barbara  @ @@Grace a@b.com (@Zoe\u0308) @Jean-Luc Picard',
    '@Grace Hopper',
  ])('joined back, the segments are the text: %j', (content) => {
    for (const list of [users, []]) {
      const segments = mentionSegments(content, list)
      expect(segments.map((segment) => segment.text).join('')).toBe(content)
      expect(segments.every((segment) => segment.text !== '')).toBe(true)
    }
  })

  test('plain text and highlights alternate as they stand in the text', () => {
    expect(mentionSegments('hi @Grace Hopper please', users)).toEqual([
      { text: 'hi ', isMention: false },
      { text: '@Grace Hopper', isMention: true },
      { text: ' please', isMention: false },
    ])
  })
})

describe('activeMentionQuery', () => {
  test.each([
    ['an @ just typed', '@', 1, { start: 0, query: '' }],
    ['a word after it', 'hi @gra', 7, { start: 3, query: 'gra' }],
    ['a name with a space', 'hi @Grace Ho', 12, { start: 3, query: 'Grace Ho' }],
    ['a space just typed', 'hi @Grace ', 10, { start: 3, query: 'Grace ' }],
    ['after punctuation', '(@al', 4, { start: 1, query: 'al' }],
    ['only the text before the caret', 'hi @gra there', 7, { start: 3, query: 'gra' }],
    ['unicode', '@Zoë', 4, { start: 0, query: 'Zoë' }],
    ['two spaces end it', 'hi @Grace  ', 11, null],
    ['a newline ends it', '@Grace\n', 7, null],
    ['punctuation ends it', '@Grace,', 7, null],
    ['an e-mail is not a mention', 'ada@exa', 7, null],
    ['no @', 'hello', 5, null],
    ['a space right after the @', '@ ', 2, null],
    ['the caret before the @', 'hi @gra', 3, null],
  ])('%s: %j at %i', (_, value, caret, expected) => {
    expect(activeMentionQuery(value, caret)).toEqual(expected)
  })
})

describe('insertMention', () => {
  test.each([
    ['at the end', 'hi @gra', 3, 7, 'Grace Hopper', { value: 'hi @Grace Hopper ', caret: 17 }],
    ['just the @', '@', 0, 1, 'Alan Turing', { value: '@Alan Turing ', caret: 13 }],
    ['in the middle', 'hi @gra there', 3, 7, 'Grace Hopper', { value: 'hi @Grace Hopper there', caret: 17 }],
    ['before a newline', '@al\nnext', 0, 3, 'Alan Turing', { value: '@Alan Turing \nnext', caret: 13 }],
    ['keeps what is after the caret', '@gr|ace', 0, 3, 'Grace', { value: '@Grace |ace', caret: 7 }],
  ])('%s', (_, value, start, caret, name, expected) => {
    expect(insertMention(value, start, caret, name)).toEqual(expected)
  })

  test('the inserted mention names the picked user', () => {
    const { value } = insertMention('cc @gra', 3, 7, grace.name)
    expect(findMentions(value, users)).toEqual([grace])
    expect(activeMentionQuery(value, value.length)).toEqual({ start: 3, query: 'Grace Hopper ' })
  })
})
