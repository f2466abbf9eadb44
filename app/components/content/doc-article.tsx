import { Link } from 'react-router'
import { Prose } from '~/components/content/prose'
import type { DocSummary, TocEntry } from '~/services/content.server'

type DocArticleProps = {
  doc: DocSummary & { html: string; toc: TocEntry[] }
  previous: DocSummary | null
  next: DocSummary | null
}

export function docHref(path: string) {
  return path === 'index' ? '/docs' : `/docs/${path}`
}

/** One doc: title, text, its table of contents beside it on wide screens, and the way on. */
export function DocArticle({ doc, previous, next }: DocArticleProps) {
  return (
    <main className="min-w-0 py-10 xl:grid xl:grid-cols-[minmax(0,1fr)_13rem] xl:gap-10">
      <article className="min-w-0">
        <header className="mb-8">
          <h1 className="text-3xl font-bold tracking-tight">{doc.title}</h1>
          <p className="mt-3 text-lg text-muted-foreground">{doc.description}</p>
        </header>
        <Prose html={doc.html} />
        {previous || next ? (
          <nav
            aria-label="Previous and next"
            className="mt-12 flex justify-between gap-4 border-t pt-6 text-sm"
          >
            {previous ? (
              <Link to={docHref(previous.path)} prefetch="intent" className="hover:underline">
                <span className="block text-muted-foreground">Previous</span>
                <span className="font-medium">{previous.title}</span>
              </Link>
            ) : (
              <span />
            )}
            {next ? (
              <Link to={docHref(next.path)} prefetch="intent" className="text-right hover:underline">
                <span className="block text-muted-foreground">Next</span>
                <span className="font-medium">{next.title}</span>
              </Link>
            ) : null}
          </nav>
        ) : null}
      </article>
      {doc.toc.length > 0 ? (
        <nav aria-labelledby="toc-heading" className="hidden xl:block">
          <div className="sticky top-24">
            <h2 id="toc-heading" className="text-sm font-semibold">
              On this page
            </h2>
            <ul className="mt-3 space-y-2 text-sm">
              {doc.toc.map((entry) => (
                <li key={entry.id} className={entry.depth === 3 ? 'pl-3' : undefined}>
                  <a href={`#${entry.id}`} className="text-muted-foreground hover:text-foreground">
                    {entry.title}
                  </a>
                </li>
              ))}
            </ul>
          </div>
        </nav>
      ) : null}
    </main>
  )
}
