import { afterEach, beforeEach, describe, expect, test } from 'vitest'
import {
  ContentError,
  contentVersion,
  findDoc,
  findDocsHome,
  findPage,
  findPost,
  listChangelog,
  listDocs,
  listPosts,
  renderEntry,
  searchDocs,
} from '~/services/content.server'
import { type ContentFolder, createContentFolder, words } from '../../tests/helpers/content'

let content: ContentFolder

beforeEach(() => {
  content = createContentFolder()
})

afterEach(() => {
  content.remove()
})

const doc = (title: string, extra = '') => `title: ${title}\ndescription: About ${title}\n${extra}`
const post = (title: string, extra = '') => `title: ${title}\ndescription: About ${title}\n${extra}`

describe('docs', () => {
  test('sort by order, missing order counting as 999, then by title', async () => {
    content.write('docs/zebra.mdx', doc('Zebra', 'order: 2'))
    content.write('docs/no-order-b.mdx', doc('Beta'))
    content.write('docs/no-order-a.mdx', doc('Alpha'))
    content.write('docs/first.mdx', doc('First', 'order: 1'))
    content.write('docs/last.mdx', doc('Last', 'order: 1000'))

    const docs = await listDocs(content.dir)

    expect(docs.map((entry) => [entry.title, entry.order])).toEqual([
      ['First', 1],
      ['Zebra', 2],
      ['Alpha', 999],
      ['Beta', 999],
      ['Last', 1000],
    ])
  })

  test('take their path from the file path; nested index files name their folder', async () => {
    content.write('docs/index.mdx', doc('Home'))
    content.write('docs/testing.mdx', doc('Testing'))
    content.write('docs/guides/upgrade.md', doc('Upgrade'))
    content.write('docs/guides/index.mdx', doc('Guides'))
    content.write('docs/_draft.mdx', doc('Draft'))

    const paths = (await listDocs(content.dir)).map((entry) => entry.path).sort()

    expect(paths).toEqual(['guides', 'guides/upgrade', 'index', 'testing'])
    expect((await findDoc('/guides/upgrade/', content.dir))?.title).toBe('Upgrade')
    expect(await findDoc('nope', content.dir)).toBeNull()
  })

  test('keep the whole entry: title, description, order, content and path', async () => {
    content.write('docs/setup.mdx', doc('Setup', 'order: 3'), '## Install\n\nRun it.')

    expect(await findDoc('setup', content.dir)).toMatchObject({
      title: 'Setup',
      description: 'About Setup',
      order: 3,
      path: 'setup',
      content: expect.stringContaining('## Install'),
    })
  })

  test("the docs home is the doc whose path is 'index', even when another comes first", async () => {
    content.write('docs/intro.mdx', doc('Intro', 'order: 1'))
    content.write('docs/index.mdx', doc('Index', 'order: 50'))

    expect((await findDocsHome(content.dir))?.path).toBe('index')
  })

  test("without an 'index' doc the home is the first by order", async () => {
    content.write('docs/later.mdx', doc('Later', 'order: 5'))
    content.write('docs/sooner.mdx', doc('Sooner', 'order: 4'))

    expect((await findDocsHome(content.dir))?.path).toBe('sooner')
  })

  test('with no docs at all there is no home (the page says "No documentation found")', async () => {
    expect(await listDocs(content.dir)).toEqual([])
    expect(await findDocsHome(content.dir)).toBeNull()
  })
})

describe('frontmatter errors name the file and the field', () => {
  test('a missing field', async () => {
    content.write('docs/broken.mdx', 'title: Broken')

    await expect(listDocs(content.dir)).rejects.toThrow(ContentError)
    await expect(listDocs(content.dir)).rejects.toThrow(/docs\/broken\.mdx.*"description"/)
  })

  test('a field of the wrong type', async () => {
    content.write('docs/typed.mdx', doc('Typed', 'order: first'))

    await expect(listDocs(content.dir)).rejects.toThrow(/docs\/typed\.mdx.*"order"/)
  })

  test('a misspelt field', async () => {
    content.write('blog/typo.mdx', post('Typo', 'tittle: Oops'))

    await expect(listPosts(content.dir)).rejects.toThrow(/blog\/typo\.mdx.*unknown field\(s\) tittle/)
  })

  test('a date that is not a date', async () => {
    content.write('blog/when.mdx', post('When', 'date: next tuesday'))

    await expect(listPosts(content.dir)).rejects.toThrow(/blog\/when\.mdx.*"date": must be a date/)
  })

  test('frontmatter that is not YAML', async () => {
    content.write('changelog/yaml.mdx', 'title: [unclosed')

    await expect(listChangelog(content.dir)).rejects.toThrow(/changelog\/yaml\.mdx.*not valid YAML/)
  })

  test('a fixed file is picked up on the next read', async () => {
    content.write('docs/fix.mdx', 'title: Fix')
    await expect(listDocs(content.dir)).rejects.toThrow(ContentError)

    content.write('docs/fix.mdx', doc('Fixed'))

    expect((await listDocs(content.dir)).map((entry) => entry.title)).toEqual(['Fixed'])
  })
})

describe('blog posts', () => {
  test('fill in every default: Anonymous, the file date, no tags, no image, order 999, reading time', async () => {
    const modified = new Date('2025-03-04T05:06:07.000Z')
    content.write('blog/plain.mdx', post('Plain'), words(10), { modified })

    expect(await findPost('plain', content.dir)).toMatchObject({
      title: 'Plain',
      description: 'About Plain',
      author: 'Anonymous',
      date: modified.toISOString(),
      tags: [],
      image: '',
      readingTime: '1 min read',
      order: 999,
      path: 'plain',
    })
  })

  test('keep what the frontmatter gives', async () => {
    content.write(
      'blog/full.mdx',
      post('Full', 'author: Ada Lovelace\ndate: 2026-01-02\ntags: [news, db]\nimage: /cover.png\norder: 3'),
    )

    expect(await findPost('full', content.dir)).toMatchObject({
      author: 'Ada Lovelace',
      date: '2026-01-02T00:00:00.000Z',
      tags: ['news', 'db'],
      image: '/cover.png',
      order: 3,
    })
  })

  test.each([
    [1, '1 min read'],
    [200, '1 min read'],
    [201, '2 min read'],
    [400, '2 min read'],
    [401, '3 min read'],
    [1000, '5 min read'],
  ])('%i words read in %s (words ÷ 200, rounded up)', async (count, expected) => {
    content.write('blog/timed.mdx', post('Timed', 'date: 2026-01-01'), words(count))

    expect((await findPost('timed', content.dir))?.readingTime).toBe(expected)
  })

  test('markup and code fences are not counted as words', async () => {
    const body = `## Heading\n\n<Note>${words(150)}</Note>\n\n\`\`\`ts\n${words(100)}\n\`\`\`\n`
    content.write('blog/marked.mdx', post('Marked', 'date: 2026-01-01'), body)

    // 1 heading word + 150 + 100 = 251 words: two minutes, the fence markers and tags add none.
    expect((await findPost('marked', content.dir))?.readingTime).toBe('2 min read')
  })

  test('a given reading time wins: minutes, or the text to show', async () => {
    content.write('blog/minutes.mdx', post('Minutes', 'readingTime: 7'), words(5))
    content.write('blog/text.mdx', post('Text', 'readingTime: A long read'), words(5))

    expect((await findPost('minutes', content.dir))?.readingTime).toBe('7 min read')
    expect((await findPost('text', content.dir))?.readingTime).toBe('A long read')
  })

  test('list newest first; the same date by order, then by title', async () => {
    content.write('blog/old.mdx', post('Old', 'date: 2024-05-01'))
    content.write('blog/new.mdx', post('New', 'date: 2026-05-01'))
    content.write('blog/same-b.mdx', post('Same B', 'date: 2025-05-01'))
    content.write('blog/same-a.mdx', post('Same A', 'date: 2025-05-01'))
    content.write('blog/same-first.mdx', post('Same First', 'date: 2025-05-01\norder: 1'))

    const titles = (await listPosts(content.dir)).map((entry) => entry.title)

    expect(titles).toEqual(['New', 'Same First', 'Same A', 'Same B', 'Old'])
  })

  test('a missing post is null', async () => {
    content.write('blog/here.mdx', post('Here'))

    expect(await findPost('gone', content.dir)).toBeNull()
  })
})

describe('changelog and pages', () => {
  test('changelog entries list newest first, with an optional version', async () => {
    content.write('changelog/a.mdx', 'date: 2026-01-01\ntitle: First')
    content.write('changelog/b.mdx', 'date: 2026-03-01T10:00:00Z\ntitle: Third\nversion: 1.2.0')
    content.write('changelog/c.mdx', 'date: 2026-02-01\ntitle: Second')

    const entries = await listChangelog(content.dir)

    expect(entries.map((entry) => [entry.title, entry.version, entry.slug])).toEqual([
      ['Third', '1.2.0', 'b'],
      ['Second', null, 'c'],
      ['First', null, 'a'],
    ])
  })

  test('a changelog entry needs a date', async () => {
    content.write('changelog/undated.mdx', 'title: Someday')

    await expect(listChangelog(content.dir)).rejects.toThrow(/changelog\/undated\.mdx.*"date"/)
  })

  test('a legal page is found by name and renders the configured support address', async () => {
    content.write(
      'pages/terms.mdx',
      'title: Terms\ndescription: The terms',
      'Write to <SupportEmail /> with questions.',
    )

    const page = await findPage('terms', content.dir)
    expect(page).toMatchObject({ title: 'Terms', description: 'The terms', updated: null })
    if (!page) throw new Error('no page')
    const { html } = await renderEntry(page, { supportEmail: 'help@example.org' })
    expect(html).toContain('<a href="mailto:help@example.org">help@example.org</a>')
    expect(await findPage('privacy', content.dir)).toBeNull()
  }, 60_000)
})

describe('rendering', () => {
  test('gives headings anchors, lists h2 and h3 as the table of contents, and highlights code', async () => {
    content.write(
      'docs/rendered.mdx',
      doc('Rendered'),
      '## Getting going\n\nText.\n\n### A detail\n\n```ts\nconst answer: number = 42\n```\n\n<Note kind="planned">Later.</Note>',
    )
    const entry = await findDoc('rendered', content.dir)
    if (!entry) throw new Error('no doc')

    const { html, toc } = await renderEntry(entry)

    expect(toc).toEqual([
      { id: 'getting-going', title: 'Getting going', depth: 2 },
      { id: 'a-detail', title: 'A detail', depth: 3 },
    ])
    expect(html).toContain('<h2 id="getting-going"><a class="heading-anchor" href="#getting-going">')
    // Highlighted on the server, for both themes: no highlighter runs in the browser.
    expect(html).toMatch(/<span style="--shiki-light:#[0-9A-F]{6};--shiki-dark:#[0-9A-F]{6}">const<\/span>/)
    expect(html).toContain(
      '<aside class="callout callout-planned"><strong class="callout-label">Planned:</strong>',
    )
  }, 60_000)

  test('compiles once per file version: the same version is served from memory, an edit recompiles', async () => {
    const file = 'docs/cached.mdx'
    content.write(file, doc('Cached'), 'First version.')
    const first = await findDoc('cached', content.dir)
    if (!first) throw new Error('no doc')
    const rendered = await renderEntry(first)

    const again = await findDoc('cached', content.dir)
    if (!again) throw new Error('no doc')
    expect(await renderEntry(again)).toBe(rendered)

    content.write(file, doc('Cached'), 'Second, longer version.')
    const edited = await findDoc('cached', content.dir)
    if (!edited) throw new Error('no doc')
    const renderedAgain = await renderEntry(edited)
    expect(renderedAgain).not.toBe(rendered)
    expect(renderedAgain.html).toContain('Second, longer version.')
  }, 60_000)

  test('the content version changes exactly when a file of that kind changes', async () => {
    content.write('docs/a.mdx', doc('A'))
    content.write('blog/b.mdx', post('B'))
    const docsBefore = await contentVersion(['docs'], content.dir)
    const blogBefore = await contentVersion(['blog'], content.dir)

    expect(await contentVersion(['docs'], content.dir)).toBe(docsBefore)
    content.write('docs/a.mdx', doc('A, edited'))

    expect(await contentVersion(['docs'], content.dir)).not.toBe(docsBefore)
    expect(await contentVersion(['blog'], content.dir)).toBe(blogBefore)
  })
})

describe('docs search', () => {
  beforeEach(() => {
    content.write('docs/deploy.mdx', doc('Deploying to Fly'), 'Create a volume and set DATABASE_URL.')
    content.write('docs/testing.mdx', doc('Testing'), 'Vitest runs each file on a fresh database.')
  })

  test('finds docs by words of their text, with a snippet that marks the match', async () => {
    const hits = await searchDocs('volume', content.dir)

    expect(hits).toHaveLength(1)
    expect(hits[0]).toMatchObject({ path: 'deploy', title: 'Deploying to Fly' })
    expect(hits[0]?.snippet).toContainEqual({ text: 'volume', isMatch: true })
  })

  test('finds docs by title, by prefix, and tolerates a typo', async () => {
    expect((await searchDocs('testing', content.dir)).map((hit) => hit.path)).toEqual(['testing'])
    expect((await searchDocs('vites', content.dir)).map((hit) => hit.path)).toEqual(['testing'])
    expect((await searchDocs('databse', content.dir)).map((hit) => hit.path).sort()).toEqual([
      'deploy',
      'testing',
    ])
  })

  test('answers nothing for an empty query or no match', async () => {
    expect(await searchDocs('   ', content.dir)).toEqual([])
    expect(await searchDocs('kubernetes', content.dir)).toEqual([])
  })

  test('sees a new doc as soon as it exists (the index follows the docs version)', async () => {
    expect(await searchDocs('webhooks', content.dir)).toEqual([])

    content.write('docs/payments.mdx', doc('Payments'), 'Stripe webhooks are verified.')

    expect((await searchDocs('webhooks', content.dir)).map((hit) => hit.path)).toEqual(['payments'])
  })
})
