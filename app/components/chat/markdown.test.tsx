import { fc, test as fcTest } from '@fast-check/vitest'
import { renderToStaticMarkup } from 'react-dom/server'
import { MemoryRouter } from 'react-router'
import { describe, expect, test } from 'vitest'
import { Markdown, parseBlocks } from './markdown'

/** What a model writes becomes text and a few safe elements, never markup of its own. */

const render = (text: string) =>
  renderToStaticMarkup(
    <MemoryRouter>
      <Markdown text={text} />
    </MemoryRouter>,
  )

describe('the chat’s markdown', () => {
  test('paragraphs, emphasis, code, lists, quotes and links', () => {
    const html = render(
      'You own **3 tasks**, _one_ `late`:\n\n- [Plan](/task?task=1) — high\n- [Docs](https://example.test/x)\n\n> quoted\n\n```\ncode <b>\n```',
    )
    expect(html).toContain('<strong>3 tasks</strong>')
    expect(html).toContain('<em>one</em>')
    expect(html).toContain('>late</code>')
    expect(html).toContain(
      '<a class="text-primary underline underline-offset-4" href="/task?task=1" data-discover="true">Plan</a>',
    )
    expect(html).toContain('href="https://example.test/x" rel="noopener noreferrer nofollow" target="_blank"')
    expect(html).toContain('quoted</blockquote>')
    expect(html).toContain(
      '<pre class="overflow-x-auto rounded-md bg-muted p-3 font-mono text-sm"><code>code &lt;b&gt;</code></pre>',
    )
  })

  test('raw HTML stays text; links other than http(s) and own paths are only their label', () => {
    const html = render('<img src=x onerror=alert(1)> [click](javascript:alert(1)) [far](//evil.example)')
    expect(html).not.toContain('<img')
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;')
    expect(html).not.toContain('javascript:')
    expect(html).not.toContain('evil.example')
    expect(html).toContain('click')
  })

  test('escaped marks are shown as they are', () => {
    expect(render('a \\*not bold\\* \\[x\\]')).toContain('a *not bold* [x]')
  })

  fcTest.prop([fc.string({ maxLength: 300 })])(
    'any text renders without throwing and never as a tag',
    (text) => {
      const html = render(text.replace(/</g, '<x'))
      expect(html).not.toMatch(/<x/)
      expect(parseBlocks(text)).toBeInstanceOf(Array)
    },
  )
})
