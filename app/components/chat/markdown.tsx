import type { ReactNode } from 'react'
import { Link } from 'react-router'

/**
 * The markdown a model writes, drawn as React elements: paragraphs, headings, lists, quotes,
 * code, emphasis and links. Never HTML: the text only ever becomes text nodes, so nothing a
 * model (or a prompt injected into it) writes can run or style the page. Links open only http(s)
 * addresses and the app's own paths.
 */

const INLINE = /(`[^`\n]+`)|(\*\*[^*\n]+\*\*)|(\*[^*\n]+\*|_[^_\n]+_)|(\[[^\]\n]+\]\([^)\s]+\))/g

function safeHref(href: string) {
  if (href.startsWith('/') && !href.startsWith('//')) return { href, isInternal: true }
  return /^https?:\/\//i.test(href) ? { href, isInternal: false } : null
}

function unescapeMarkdown(text: string) {
  return text.replace(/\\([\\`*_[\]<>])/g, '$1')
}

function inline(text: string, key: string): ReactNode[] {
  const nodes: ReactNode[] = []
  let last = 0
  for (const match of text.matchAll(INLINE)) {
    const index = match.index ?? 0
    if (index > 0 && text[index - 1] === '\\') continue
    if (index > last) nodes.push(unescapeMarkdown(text.slice(last, index)))
    const [whole, code, strong, em, link] = match
    const k = `${key}-${index}`
    if (code)
      nodes.push(
        <code key={k} className="rounded bg-muted px-1 py-0.5 font-mono text-[0.9em]">
          {code.slice(1, -1)}
        </code>,
      )
    else if (strong) nodes.push(<strong key={k}>{inline(strong.slice(2, -2), k)}</strong>)
    else if (em) nodes.push(<em key={k}>{inline(em.slice(1, -1), k)}</em>)
    else if (link) {
      const [, label = '', target = ''] = link.match(/^\[([^\]]+)\]\(([^)]+)\)$/) ?? []
      const safe = safeHref(target)
      if (!safe) nodes.push(unescapeMarkdown(label))
      else if (safe.isInternal)
        nodes.push(
          <Link key={k} to={safe.href} className="text-primary underline underline-offset-4">
            {inline(label, k)}
          </Link>,
        )
      else
        nodes.push(
          <a
            key={k}
            href={safe.href}
            rel="noopener noreferrer nofollow"
            target="_blank"
            className="text-primary underline underline-offset-4"
          >
            {inline(label, k)}
          </a>,
        )
    }
    last = index + whole.length
  }
  if (last < text.length) nodes.push(unescapeMarkdown(text.slice(last)))
  return nodes
}

type Block =
  | { kind: 'code'; text: string }
  | { kind: 'heading'; level: number; text: string }
  | { kind: 'list'; ordered: boolean; items: string[] }
  | { kind: 'quote'; text: string }
  | { kind: 'paragraph'; text: string }

export function parseBlocks(markdown: string): Block[] {
  const lines = markdown.replace(/\r\n?/g, '\n').split('\n')
  const blocks: Block[] = []
  let index = 0
  while (index < lines.length) {
    const line = lines[index] ?? ''
    if (line.trim() === '') {
      index++
    } else if (line.startsWith('```')) {
      const body: string[] = []
      index++
      while (index < lines.length && !(lines[index] ?? '').startsWith('```')) body.push(lines[index++] ?? '')
      index++
      blocks.push({ kind: 'code', text: body.join('\n') })
    } else if (/^#{1,6}\s/.test(line)) {
      const [, hashes = '#', text = ''] = line.match(/^(#{1,6})\s+(.*)$/) ?? []
      blocks.push({ kind: 'heading', level: hashes.length, text })
      index++
    } else if (/^\s*([-*+]|\d+[.)])\s+/.test(line)) {
      const ordered = /^\s*\d/.test(line)
      const items: string[] = []
      while (index < lines.length && /^\s*([-*+]|\d+[.)])\s+/.test(lines[index] ?? '')) {
        items.push((lines[index++] ?? '').replace(/^\s*([-*+]|\d+[.)])\s+/, ''))
      }
      blocks.push({ kind: 'list', ordered, items })
    } else if (line.startsWith('>')) {
      const body: string[] = []
      while (index < lines.length && (lines[index] ?? '').startsWith('>'))
        body.push((lines[index++] ?? '').replace(/^>\s?/, ''))
      blocks.push({ kind: 'quote', text: body.join(' ') })
    } else {
      const body: string[] = []
      while (
        index < lines.length &&
        (lines[index] ?? '').trim() !== '' &&
        !/^(```|#{1,6}\s|>|\s*([-*+]|\d+[.)])\s)/.test(lines[index] ?? '')
      ) {
        body.push(lines[index++] ?? '')
      }
      blocks.push({ kind: 'paragraph', text: body.join(' ') })
    }
  }
  return blocks
}

export function Markdown({ text }: { text: string }) {
  return (
    <div className="space-y-3 break-words leading-relaxed">
      {parseBlocks(text).map((block, index) => {
        const key = String(index)
        switch (block.kind) {
          case 'code':
            return (
              <pre key={key} className="overflow-x-auto rounded-md bg-muted p-3 font-mono text-sm">
                <code>{block.text}</code>
              </pre>
            )
          case 'heading':
            return (
              <p key={key} className="font-semibold">
                {inline(block.text, key)}
              </p>
            )
          case 'list': {
            const List = block.ordered ? 'ol' : 'ul'
            return (
              <List
                key={key}
                className={block.ordered ? 'list-decimal space-y-1 pl-5' : 'list-disc space-y-1 pl-5'}
              >
                {block.items.map((item, itemIndex) => (
                  // biome-ignore lint/suspicious/noArrayIndexKey: the items of a parsed list have no other identity
                  <li key={itemIndex}>{inline(item, `${key}-${itemIndex}`)}</li>
                ))}
              </List>
            )
          }
          case 'quote':
            return (
              <blockquote key={key} className="border-l-2 pl-3 text-muted-foreground">
                {inline(block.text, key)}
              </blockquote>
            )
          default:
            return <p key={key}>{inline(block.text, key)}</p>
        }
      })}
    </div>
  )
}
