import { initials } from '~/components/avatar'
import { Badge } from '~/components/ui/badge'
import type { ShowcaseProject } from '~/services/showcase.server'
import { cn } from '~/utils/cn'

/** Tiles for projects without an image, in turn, so neighbouring cards never share a colour. */
const TILE_COLOURS = [
  'bg-indigo-100 text-indigo-900 dark:bg-indigo-950 dark:text-indigo-100',
  'bg-emerald-100 text-emerald-900 dark:bg-emerald-950 dark:text-emerald-100',
  'bg-amber-100 text-amber-900 dark:bg-amber-950 dark:text-amber-100',
  'bg-rose-100 text-rose-900 dark:bg-rose-950 dark:text-rose-100',
  'bg-sky-100 text-sky-900 dark:bg-sky-950 dark:text-sky-100',
]

function tileColour(position: number) {
  return TILE_COLOURS[position % TILE_COLOURS.length]
}

function isExternal(url: string) {
  return /^https?:\/\//.test(url)
}

/**
 * The showcase cards. Plain anchors, not router links: most projects live on other sites, and the
 * component stays renderable outside a router (its tests render it to a string).
 */
export function ShowcaseGrid({ projects }: { projects: ShowcaseProject[] }) {
  if (projects.length === 0) {
    return (
      <div className="rounded-xl border border-dashed p-12 text-center" data-testid="showcase-empty">
        <h2 className="text-lg font-semibold">No projects to show yet</h2>
        <p className="mt-2 text-sm text-muted-foreground">
          Built something with Threadwork? Tell us through the{' '}
          <a href="/support" className="font-medium text-primary underline-offset-4 hover:underline">
            support page
          </a>{' '}
          and it may be the first one here.
        </p>
      </div>
    )
  }
  return (
    <ul className="grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
      {projects.map((project, position) => (
        <li key={project.name}>
          <ShowcaseCard project={project} position={position} />
        </li>
      ))}
    </ul>
  )
}

function ShowcaseCard({ project, position }: { project: ShowcaseProject; position: number }) {
  const external = isExternal(project.url)
  return (
    <article className="group relative flex h-full flex-col overflow-hidden rounded-xl border bg-card shadow-sm transition-shadow focus-within:ring-2 focus-within:ring-ring hover:shadow-md">
      <div className="aspect-[16/9] border-b bg-muted">
        {project.image ? (
          // Decorative: the project's name is the card's heading right below.
          <img src={project.image} alt="" loading="lazy" className="size-full object-cover" />
        ) : (
          <div
            className={cn(
              'flex size-full items-center justify-center text-4xl font-bold tracking-tight',
              tileColour(position),
            )}
          >
            <span aria-hidden>{initials(project.name)}</span>
          </div>
        )}
      </div>
      <div className="flex flex-1 flex-col p-5">
        <h2 className="font-semibold">
          {/* The link covers the whole card (the ::after overlay), so every part of it is a target. */}
          <a
            href={project.url}
            className="after:absolute after:inset-0 focus-visible:outline-none"
            {...(external ? { rel: 'noopener' } : {})}
          >
            {project.name}
            {external ? <span className="sr-only"> (external site)</span> : null}
          </a>
        </h2>
        <p className="mt-2 flex-1 text-sm text-muted-foreground">{project.description}</p>
        {project.tags.length ? (
          <ul className="mt-4 flex flex-wrap gap-1.5" aria-label="Tags">
            {project.tags.map((tag) => (
              <Badge as="li" key={tag} tone="muted" weight="medium" isWide>
                {tag}
              </Badge>
            ))}
          </ul>
        ) : null}
      </div>
    </article>
  )
}
