import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { renderToStaticMarkup } from 'react-dom/server'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { ShowcaseGrid } from '~/components/marketing/showcase-grid'
import { InvalidShowcaseError, listShowcaseProjects, parseShowcase } from '~/services/showcase.server'
import { callLoader } from '../../tests/helpers/route'
import { loader } from './showcase'

describe('showcase data', () => {
  let folder: string
  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), 'showcase-'))
  })
  afterAll(() => rm(folder, { recursive: true, force: true }))

  test('the shipped content/showcase.json is valid and lists projects', async () => {
    const { status, data, headers } = await callLoader(loader, { url: '/showcase' })
    expect(status).toBe(200)
    expect(headers.get('Cache-Control')).toBe('public, max-age=60, s-maxage=300')
    expect(headers.get('ETag')).toMatch(/^W\/".+"$/)
    expect(data.projects.length).toBeGreaterThan(0)
    for (const project of data.projects) {
      expect(project.name).not.toBe('')
      expect(project.url).toMatch(/^(\/|https?:\/\/)/)
    }
  })

  test('an empty file, an empty list or no file at all is an empty showcase', async () => {
    await writeFile(join(folder, 'showcase.json'), '  \n')
    expect(await listShowcaseProjects(folder)).toEqual([])
    await writeFile(join(folder, 'showcase.json'), '[]')
    expect(await listShowcaseProjects(folder)).toEqual([])
    expect(await listShowcaseProjects(join(folder, 'missing'))).toEqual([])
  })

  test('tags default to none; image is optional', () => {
    expect(
      parseShowcase('[{"name":"Acme","description":"Does things.","url":"https://acme.example"}]'),
    ).toEqual([{ name: 'Acme', description: 'Does things.', url: 'https://acme.example', tags: [] }])
  })

  test('a bad entry fails with the file, the entry and the field named', () => {
    const source = JSON.stringify([
      { name: 'Good', description: 'Fine.', url: '/docs' },
      { name: 'Bad', description: 'Broken link.', url: 'javascript:alert(1)', colour: 'red' },
    ])
    expect(() => parseShowcase(source, 'content/showcase.json')).toThrow(InvalidShowcaseError)
    expect(() => parseShowcase(source, 'content/showcase.json')).toThrow(
      /content\/showcase\.json is invalid:\n {2}entry 2 \(url\): must be a path on this site/,
    )
    expect(() => parseShowcase(source)).toThrow(/entry 2: Unrecognized key: "colour"/)
    expect(() => parseShowcase('{ not json', 'x.json')).toThrow(/x\.json: not valid JSON/)
  })
})

describe('<ShowcaseGrid>', () => {
  test('an empty showcase says so and invites a submission', () => {
    const html = renderToStaticMarkup(<ShowcaseGrid projects={[]} />)
    expect(html).toContain('No projects to show yet')
    expect(html).toContain('href="/support"')
  })

  test('cards show the image, or initials without one, with name, link and tags', () => {
    const html = renderToStaticMarkup(
      <ShowcaseGrid
        projects={[
          { name: 'Acme Tasks', description: 'For Acme.', url: 'https://acme.example', tags: ['B2B'] },
          { name: 'Docs', description: 'Ours.', url: '/docs', image: '/showcase/docs.svg', tags: [] },
        ]}
      />,
    )
    expect(html).toContain('>AT</span>')
    expect(html).toContain('href="https://acme.example"')
    expect(html).toContain('(external site)')
    expect(html).toContain('B2B')
    expect(html).toContain('src="/showcase/docs.svg"')
    expect(html).toContain('href="/docs"')
  })
})
