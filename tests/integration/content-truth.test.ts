import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { describe, expect, test } from 'vitest'
import { docPageData } from '~/routes/docs/+parts/doc-page.server'
import { router } from '~/rpc/router.server'
import { findDoc, findPage, listChangelog, listDocs, listPosts } from '~/services/content.server'
import { procedureNames } from '../helpers/rpc'

/**
 * The shipped content, held to the code: every file is valid, the required pages exist, and what
 * the docs promise about configuration and the RPC endpoint matches the code, so a new variable or
 * procedure without documentation fails here.
 */
const CONTENT = resolve('content')
const read = (path: string) => readFileSync(resolve(CONTENT, path), 'utf8')

describe('the shipped content', () => {
  test('every file has valid frontmatter', async () => {
    await expect(listDocs(CONTENT)).resolves.toBeDefined()
    await expect(listPosts(CONTENT)).resolves.toBeDefined()
    await expect(listChangelog(CONTENT)).resolves.toBeDefined()
  })

  test('has the docs the kit promises, an index, three or more posts, changelog entries, terms and privacy', async () => {
    const docs = (await listDocs(CONTENT)).map((doc) => doc.path)
    for (const path of [
      'index',
      'getting-started',
      'configuration',
      'architecture',
      'rpc',
      'auth-api',
      'event-streams',
      'testing',
      'deployment',
      'scaling-libsql',
    ]) {
      expect(docs).toContain(path)
    }
    expect((await listPosts(CONTENT)).length).toBeGreaterThanOrEqual(3)
    expect((await listChangelog(CONTENT)).length).toBeGreaterThanOrEqual(3)
    expect(await findPage('terms', CONTENT)).not.toBeNull()
    expect(await findPage('privacy', CONTENT)).not.toBeNull()
  })

  test('every post has an author and a date of its own, not a checkout time', () => {
    for (const file of ['foundation', 'plain-node-http', 'whole-schema-on-day-one', 'two-doors-one-house']) {
      expect(read(`blog/${file}.mdx`)).toMatch(/^date: \d{4}-\d{2}-\d{2}$/m)
      expect(read(`blog/${file}.mdx`)).toMatch(/^author: /m)
    }
  })

  test('the configuration doc names every variable app/env.server.ts reads', () => {
    const schema = readFileSync(resolve('app/env.server.ts'), 'utf8')
    const start = schema.indexOf('const EnvSchema = z.object({')
    const body = schema.slice(start, schema.indexOf('\n})', start))
    const variables = [...body.matchAll(/^ {2}([A-Z][A-Z0-9_]+):/gm)].map((match) => match[1])
    const documented = read('docs/configuration.mdx')

    expect(variables.length).toBeGreaterThan(10)
    for (const variable of variables) expect(documented, variable).toContain(`\`${variable}\``)
  })

  test('the RPC doc shows every procedure the router has, from the reference generated from it', async () => {
    const live = procedureNames(router)
    const doc = await findDoc('rpc', CONTENT)
    if (!doc) throw new Error('docs/rpc.mdx is missing')
    const { html } = (await docPageData(doc, new Request('http://localhost/docs/rpc'))).data.doc

    expect(live).toContain('healthCheck')
    for (const name of live) {
      expect(html, `${name} is live: the page shows it`).toContain(`<code>${name}</code></td>`)
    }
    // The hand-written rows the generated reference replaced stay gone.
    expect(read('docs/rpc.mdx')).not.toMatch(/^\| `task\.create` \|/m)
  })

  test('the Auth API doc covers every endpoint /api/auth answers', () => {
    const source = ['endpoints.server.ts', 'organization.server.ts', 'organization-people.server.ts']
      .map((file) => readFileSync(resolve('app/auth/better-auth', file), 'utf8'))
      .join('\n')
    const endpoints = [...source.matchAll(/^ {2}'([\w/-]+)': async/gm)].map((match) => match[1] ?? '')
    const documented = read('docs/auth-api.mdx')

    expect(endpoints).toContain('get-session')
    expect(endpoints).toContain('organization/leave')
    for (const endpoint of endpoints) expect(documented, endpoint).toContain(`/${endpoint}\``)
  })

  test('the getting-started doc gives the two commands of the README', () => {
    const documented = read('docs/getting-started.mdx')
    expect(documented).toContain('npm install && npm run demo')
    expect(documented).toContain('npm install && npm test')
    expect(documented).toContain('threadwork-demo')
  })

  test('every link inside the content leads to a page that exists', async () => {
    const docs = new Set((await listDocs(CONTENT)).map((doc) => doc.path))
    const posts = new Set((await listPosts(CONTENT)).map((post) => post.path))
    const pages = new Set([
      '/',
      '/showcase',
      '/blog',
      '/docs',
      '/changelog',
      '/pricing',
      '/support',
      '/terms',
      '/privacy',
      '/blog/rss.xml',
      '/sitemap.xml',
    ])
    const files = [
      ...(await listDocs(CONTENT)).map((doc) => doc.content),
      ...(await listPosts(CONTENT)).map((post) => post.content),
      ...(await listChangelog(CONTENT)).map((entry) => entry.content),
    ]
    const links = files.flatMap((text) =>
      [...text.matchAll(/\]\((\/[^)\s]*)\)/g)].map((match) => match[1] ?? ''),
    )

    expect(links.length).toBeGreaterThan(20)
    for (const link of links) {
      const path = link.split('#')[0]?.split('?')[0] ?? ''
      const exists =
        pages.has(path) ||
        (path.startsWith('/docs/') && docs.has(path.slice('/docs/'.length))) ||
        (path.startsWith('/blog/') && posts.has(path.slice('/blog/'.length)))
      expect(exists, `broken link ${link}`).toBe(true)
    }
  })
})
