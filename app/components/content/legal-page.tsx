import { Prose } from '~/components/content/prose'
import { formatLongDate } from '~/utils/long-date'

type LegalPageProps = { title: string; updated: string | null; html: string }

export function LegalPage({ title, updated, html }: LegalPageProps) {
  return (
    <main className="mx-auto max-w-3xl px-4 py-12">
      <article>
        <header className="mb-8">
          <h1 className="text-3xl font-bold tracking-tight">{title}</h1>
          {updated ? (
            <p className="mt-2 text-sm text-muted-foreground">
              Last updated <time dateTime={updated}>{formatLongDate(updated)}</time>
            </p>
          ) : null}
        </header>
        <Prose html={html} />
      </article>
    </main>
  )
}
