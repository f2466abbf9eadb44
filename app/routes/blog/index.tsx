import { data, Link } from 'react-router'
import { PostByline, PostTags } from '~/components/content/post-meta'
import { RouteErrorScreen } from '~/components/error-screens'
import { contentVersion, listPosts, summarizePost } from '~/services/content.server'
import { publicCacheHeaders, publicPageHeaders } from '~/utils/public-cache.server'
import { seo } from '~/utils/seo'
import type { Route } from './+types/index'

export const meta: Route.MetaFunction = ({ matches }) => [
  ...seo({
    matches,
    title: 'Blog',
    description: 'How Threadwork is built: notes on the server, the data layer, the RPC door and the UI.',
    path: '/blog',
  }),
  {
    tagName: 'link',
    rel: 'alternate',
    type: 'application/rss+xml',
    title: 'Threadwork blog',
    href: '/blog/rss.xml',
  },
]

export const headers: Route.HeadersFunction = publicPageHeaders

/** Every post, newest first (same day: by order). */
export async function loader({ request }: Route.LoaderArgs) {
  const [posts, version] = await Promise.all([listPosts(), contentVersion(['blog'])])
  return data({ posts: posts.map(summarizePost) }, { headers: publicCacheHeaders(request, version) })
}

export default function Blog({ loaderData: { posts } }: Route.ComponentProps) {
  return (
    <main className="mx-auto max-w-3xl px-4 py-12">
      <header className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <h1 className="text-3xl font-bold tracking-tight">Blog</h1>
          <p className="mt-2 text-muted-foreground">How Threadwork is built, and why.</p>
        </div>
        <a href="/blog/rss.xml" className="text-sm text-primary underline underline-offset-4">
          RSS feed
        </a>
      </header>
      {posts.length === 0 ? (
        <p className="mt-10 text-muted-foreground">No posts yet.</p>
      ) : (
        <ol className="mt-10 space-y-10">
          {posts.map((post) => (
            <li key={post.path}>
              <article className="grid gap-4 sm:grid-cols-[minmax(0,1fr)_auto]">
                <div className="min-w-0">
                  <h2 className="text-xl font-semibold">
                    <Link to={`/blog/${post.path}`} prefetch="intent" className="hover:underline">
                      {post.title}
                    </Link>
                  </h2>
                  <PostByline author={post.author} date={post.date} readingTime={post.readingTime} />
                  <p className="mt-3">{post.description}</p>
                  <PostTags tags={post.tags} />
                </div>
                {post.image ? (
                  <img
                    src={post.image}
                    alt=""
                    loading="lazy"
                    className="aspect-video w-full rounded-md border object-cover sm:w-48"
                  />
                ) : null}
              </article>
            </li>
          ))}
        </ol>
      )}
    </main>
  )
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <RouteErrorScreen error={error} />
}
