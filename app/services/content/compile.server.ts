import { createHash } from 'node:crypto'
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { bundleMDX } from 'mdx-bundler'
import { getMDXComponent } from 'mdx-bundler/client'
import { createContext, createElement, type ReactNode, useContext } from 'react'
import { renderToStaticMarkup } from 'react-dom/server'
import rehypeAutolinkHeadings from 'rehype-autolink-headings'
import rehypePrettyCode from 'rehype-pretty-code'
import rehypeSlug from 'rehype-slug'
import remarkGfm from 'remark-gfm'

/**
 * MDX → HTML, once per file version. Compiling (esbuild + remark/rehype + shiki) costs tens to
 * hundreds of milliseconds, so it never happens per request:
 *
 * - `compileMdx` caches the bundle by the SHA-256 of the source, in memory (one promise per hash,
 *   so concurrent requests share one compilation) and on disk under `build/content-cache/`, so a
 *   restart — or a server started after `npm run build` precompiled everything — skips it.
 * - `renderMdx` turns a bundle into static HTML once per bundle and set of props, also memoized.
 *
 * The browser receives HTML, not the bundle: evaluating a bundle needs `new Function`, which the
 * nonce-based Content-Security-Policy rightly forbids, and static HTML ships no MDX runtime at
 * all (docs/decisions/018-content-html-on-the-server.md).
 */

export type TocEntry = { id: string; title: string; depth: 2 | 3 }
type CompiledMdx = { code: string; toc: TocEntry[] }
export type RenderedContent = { html: string; toc: TocEntry[] }

/** One version of one file: its MDX body (frontmatter removed), the body's hash, and its name. */
export type MdxSource = { body: string; hash: string; label: string }

/** Part of every cache key: bump it when plugins or their options change the output. */
const COMPILER_VERSION = 'mdx-2'

const cacheDir = resolve('build/content-cache')
const compiled = new Map<string, Promise<CompiledMdx>>()
const rendered = new Map<string, Promise<RenderedContent>>()

export function sourceHash(source: string): string {
  return createHash('sha256').update(source).digest('hex')
}

class ContentCompileError extends Error {
  override name = 'ContentCompileError'
}

/**
 * The file version as HTML with its table of contents. Memoized per version and props, so after
 * the first call it is one Map lookup.
 */
export function renderContent(source: MdxSource, props: ContentProps = {}): Promise<RenderedContent> {
  const key = `${source.hash}\0${JSON.stringify(props)}`
  let pending = rendered.get(key)
  if (!pending) {
    pending = compileMdx(source).then((bundle) => ({ html: renderMdx(bundle, props), toc: bundle.toc }))
    // A failure is not cached: the next request tries again (and reports the error again).
    pending.catch(() => rendered.delete(key))
    rendered.set(key, pending)
  }
  return pending
}

/** The bundle of one file version; one compilation per hash however many requests ask at once. */
function compileMdx(source: MdxSource): Promise<CompiledMdx> {
  let pending = compiled.get(source.hash)
  if (!pending) {
    pending = fromDiskOrCompile(source)
    pending.catch(() => compiled.delete(source.hash))
    compiled.set(source.hash, pending)
  }
  return pending
}

async function fromDiskOrCompile({ body, hash, label }: MdxSource): Promise<CompiledMdx> {
  const file = join(cacheDir, `${COMPILER_VERSION}-${hash}.json`)
  try {
    const cached = JSON.parse(await readFile(file, 'utf8')) as CompiledMdx
    if (typeof cached.code === 'string' && Array.isArray(cached.toc)) return cached
  } catch {
    // Not cached yet (or unreadable): compile.
  }
  const result = await compile(body, label)
  await writeCacheFile(file, JSON.stringify(result))
  return result
}

/** Best effort: a read-only deployment (the Docker image's `node` user) simply keeps memory only. */
async function writeCacheFile(file: string, contents: string) {
  try {
    await mkdir(cacheDir, { recursive: true })
    const temporary = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`
    await writeFile(temporary, contents)
    await rename(temporary, file)
  } catch {
    // Caching on disk is an optimisation; the memory cache still holds the result.
  }
}

async function compile(body: string, label: string): Promise<CompiledMdx> {
  const toc: TocEntry[] = []
  try {
    const { code } = await bundleMDX({
      source: body,
      mdxOptions(options) {
        // Docs, posts and legal pages are written in GitHub-flavoured Markdown: tables,
        // strikethrough, autolinks and task lists. Plain CommonMark would print tables as `| … |`.
        options.remarkPlugins = [...(options.remarkPlugins ?? []), remarkGfm]
        options.rehypePlugins = [
          ...(options.rehypePlugins ?? []),
          rehypeSlug,
          [collectHeadings, toc],
          scrollableTables,
          [rehypeAutolinkHeadings, { behavior: 'wrap', properties: { className: ['heading-anchor'] } }],
          [
            rehypePrettyCode,
            {
              theme: { light: 'github-light-default', dark: 'github-dark-default' },
              keepBackground: false,
              defaultLang: { block: 'plaintext' },
            },
          ],
        ]
        return options
      },
      esbuildOptions(options) {
        options.minify = true
        options.target = 'node20'
        return options
      },
    })
    return { code, toc }
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error)
    throw new ContentCompileError(`Could not compile ${label}: ${reason}`)
  }
}

type HastNode = {
  type: string
  tagName?: string
  value?: string
  properties?: Record<string, unknown>
  children?: HastNode[]
}

/** A rehype plugin that records h2 and h3 headings (after rehype-slug gave them ids). */
function collectHeadings(toc: TocEntry[]) {
  return (tree: HastNode) => {
    const visit = (node: HastNode) => {
      if (node.type === 'element' && (node.tagName === 'h2' || node.tagName === 'h3')) {
        const id = node.properties?.id
        if (typeof id === 'string') {
          toc.push({ id, title: textOf(node).trim(), depth: node.tagName === 'h2' ? 2 : 3 })
        }
        return
      }
      for (const child of node.children ?? []) visit(child)
    }
    visit(tree)
  }
}

/**
 * Wraps every table in a box that scrolls sideways, so a wide table never widens a phone's page.
 * The box is focusable and named after the table's columns: keyboard users can scroll it too.
 */
function scrollableTables() {
  return (tree: HastNode) => {
    const visit = (node: HastNode) => {
      node.children = node.children?.map((child) => {
        if (child.type !== 'element' || child.tagName !== 'table') {
          visit(child)
          return child
        }
        const headerRow = child.children?.find((part) => part.tagName === 'thead')?.children?.find(isElement)
        const columns = (headerRow?.children ?? []).filter(isElement).map((cell) => textOf(cell).trim())
        return {
          type: 'element',
          tagName: 'div',
          properties: {
            className: ['table-scroll'],
            role: 'region',
            tabIndex: 0,
            ariaLabel: columns.length > 0 ? `Table: ${columns.join(', ')}` : 'Table',
          },
          children: [child],
        }
      })
    }
    visit(tree)
  }
}

function isElement(node: HastNode) {
  return node.type === 'element'
}

function textOf(node: HastNode): string {
  if (node.type === 'text') return node.value ?? ''
  return (node.children ?? []).map(textOf).join('')
}

/** Values from the server that content may show, such as `<SupportEmail />`. */
export type ContentProps = {
  /** The support address from configuration, for `<SupportEmail />`. */
  supportEmail?: string
  /** The RPC procedures as their contract declares them, for `<RpcReference group="task" />`. */
  rpcReference?: ProcedureReference[]
}

/** One RPC procedure of the generated reference (app/rpc/openapi.server.ts). */
export type ProcedureReference = {
  name: string
  method: string
  input: { name: string; type: string; isRequired: boolean; rules: string[] }[]
}

function renderMdx({ code }: CompiledMdx, props: ContentProps): string {
  const Content = getMDXComponent(code)
  return renderToStaticMarkup(
    createElement(ContentPropsContext, { value: props }, createElement(Content, { components })),
  )
}

const ContentPropsContext = createContext<ContentProps>({})

function SupportEmail() {
  const { supportEmail = '' } = useContext(ContentPropsContext)
  return createElement('a', { href: `mailto:${supportEmail}` }, supportEmail)
}

const CALLOUT_LABELS = { note: 'Note:', planned: 'Planned:', warning: 'Warning:' } as const

/** A highlighted aside: `<Note>…</Note>`, `<Note kind="planned">…</Note>`, `<Note kind="warning">`. */
function Note({ kind = 'note', children }: { kind?: keyof typeof CALLOUT_LABELS; children?: ReactNode }) {
  return createElement(
    'aside',
    { className: `callout callout-${kind}` },
    createElement('strong', { className: 'callout-label' }, CALLOUT_LABELS[kind]),
    ' ',
    children,
  )
}

/**
 * The procedures of one group (`task` for `task.*`; `healthCheck` for itself) as a table of their
 * method and input fields, from the contract, so the page cannot list a field the router lacks
 * or miss one it has.
 */
function RpcReference({ group }: { group: string }) {
  const { rpcReference = [] } = useContext(ContentPropsContext)
  const procedures = rpcReference.filter((procedure) => procedure.name.split('.')[0] === group)
  if (procedures.length === 0) return null
  const cell = (tag: 'th' | 'td', ...children: ReactNode[]) => createElement(tag, null, ...children)
  const code = (text: string) => createElement('code', null, text)
  return createElement(
    'table',
    null,
    createElement(
      'thead',
      null,
      createElement('tr', null, cell('th', 'procedure'), cell('th', 'method'), cell('th', 'input')),
    ),
    createElement(
      'tbody',
      null,
      ...procedures.map((procedure) =>
        createElement(
          'tr',
          { key: procedure.name, id: `procedure-${procedure.name}` },
          cell('td', code(procedure.name)),
          cell('td', procedure.method),
          cell(
            'td',
            procedure.input.length === 0
              ? 'none'
              : createElement(
                  'ul',
                  null,
                  ...procedure.input.map((field) =>
                    createElement(
                      'li',
                      { key: field.name },
                      code(field.name),
                      ` ${field.type}${field.isRequired ? '' : ', optional'}`,
                      ...(field.rules.length > 0 ? [`: ${field.rules.join(', ')}`] : []),
                    ),
                  ),
                ),
          ),
        ),
      ),
    ),
  )
}

/** Components content may use, rendered to plain HTML like everything else. */
const components = { SupportEmail, Note, RpcReference }
