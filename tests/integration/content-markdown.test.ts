import { readdirSync } from 'node:fs'
import { resolve } from 'node:path'
import { describe, expect, test } from 'vitest'
import { type MdxSource, sourceHash } from '~/services/content/compile.server'
import { findPage, listChangelog, listDocs, listPosts, renderEntry } from '~/services/content.server'

/**
 * Every shipped content file is written in GitHub-flavoured Markdown. Compiled with plain
 * CommonMark, a table comes out as a paragraph of `| a | b |` lines; this holds every file to
 * real tables, so a pipeline change that drops GFM fails here, not in a visitor's browser.
 */
const CONTENT = resolve('content')

async function everyEntry(): Promise<{ label: string; source: MdxSource }[]> {
  const pageNames = readdirSync(resolve(CONTENT, 'pages'))
    .filter((name) => /\.mdx?$/.test(name) && !name.startsWith('_'))
    .map((name) => name.replace(/\.mdx?$/, ''))
  const pages = await Promise.all(pageNames.map((name) => findPage(name, CONTENT)))
  return [
    ...(await listDocs(CONTENT)),
    ...(await listPosts(CONTENT)),
    ...(await listChangelog(CONTENT)),
    ...pages.flatMap((page) => (page ? [page] : [])),
  ].map((entry) => ({ label: entry.source.label, source: entry.source }))
}

/** A table's delimiter row: `|---|---|`, `| :-- | --: |`, with or without outer pipes. */
const DELIMITER_ROW = /^\s*\|?\s*:?-{3,}:?\s*(\|\s*:?-{3,}:?\s*)+\|?\s*$/

/** The Markdown lines outside fenced code blocks, where a table is written. */
function proseLines(body: string): string[] {
  const lines: string[] = []
  let fence: string | null = null
  for (const line of body.split('\n')) {
    const marker = /^\s*(`{3,}|~{3,})/.exec(line)?.[1]
    if (marker && (fence === null || marker.startsWith(fence))) {
      fence = fence === null ? marker : null
      continue
    }
    if (fence === null) lines.push(line)
  }
  return lines
}

/** The text lines a reader sees in the rendered HTML, code blocks left out. */
function renderedTextLines(html: string): string[] {
  return html
    .replace(/<pre\b[\s\S]*?<\/pre>/gi, '\n')
    .replace(/<[^>]*>/g, '')
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&')
    .split('\n')
}

function looksLikeRawTableRow(line: string) {
  return DELIMITER_ROW.test(line) || /^\s*\|.*\|\s*$/.test(line)
}

describe('the shipped content renders GitHub-flavoured Markdown', () => {
  test('no file shows a raw table row, and every table written in a file renders as a <table>', async () => {
    const entries = await everyEntry()
    expect(entries.length).toBeGreaterThan(20)
    let tablesSeen = 0

    for (const { label, source } of entries) {
      const { html } = await renderEntry({ source })
      const rawRows = renderedTextLines(html).filter(looksLikeRawTableRow)
      expect(rawRows, `${label} shows raw table rows`).toEqual([])

      const written = proseLines(source.body).filter((line) => DELIMITER_ROW.test(line)).length
      const rendered = html.match(/<table\b/g)?.length ?? 0
      expect(rendered, `${label}: tables written vs rendered`).toBe(written)
      tablesSeen += rendered
    }

    expect(tablesSeen).toBeGreaterThan(10)
  }, 180_000)

  test('the pages the outside test found broken hold tables with header cells', async () => {
    const entries = await everyEntry()
    for (const label of [
      'docs/configuration.mdx',
      'docs/rpc.mdx',
      'pages/privacy.mdx',
      'blog/plain-node-http.mdx',
      'blog/two-doors-one-house.mdx',
    ]) {
      const entry = entries.find((candidate) => candidate.label === label)
      if (!entry) throw new Error(`${label} is missing`)
      const { html } = await renderEntry({ source: entry.source })
      expect(html, label).toMatch(/<table>[\s\S]*<thead>[\s\S]*<th\b[\s\S]*<tbody>/)
    }
  }, 180_000)

  test('strikethrough, autolinks and task lists come with it', async () => {
    const body = '~~gone~~ and https://example.com\n\n- [x] done\n- [ ] to do\n'
    const { html } = await renderEntry({ source: { body, hash: sourceHash(body), label: 'inline' } })

    expect(html).toContain('<del>gone</del>')
    expect(html).toContain('<a href="https://example.com">https://example.com</a>')
    expect(html).toMatch(/<input type="checkbox" disabled="" checked=""\/?> ?done/)
  }, 60_000)
})
