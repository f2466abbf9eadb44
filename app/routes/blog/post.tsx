import { data, Link } from 'react-router'
import { PostByline, PostTags } from '~/components/content/post-meta'
import { Prose } from '~/components/content/prose'
import { RouteErrorScreen } from '~/components/error-screens'
import { contentVersion, findPost, renderEntry, summarizePost } from '~/services/content.server'
import { publicCacheHeaders, publicPageHeaders } from '~/utils/public-cache.server'
import { notFoundSeo, seo } from '~/utils/seo'
import type { Route } from './+types/post'

export const meta: Route.MetaFunction = ({ matches, loaderData, error }) =>
  error || !loaderData
    ? notFoundSeo(matches, '/blog')
    : seo({
        matches,
        title: loaderData.post.title,
        description: loaderData.post.description,
        path: `/blog/${loaderData.post.path}`,
        image: loaderData.post.image,
        type: 'article',
        publishedAt: loaderData.post.date,
      })

export const headers: Route.HeadersFunction = publicPageHeaders

/** /blog/<path>: one post, or the not-found screen with a 404. */
export async function loader({ request, params }: Route.LoaderArgs) {
  const post = await findPost(params['*'] ?? '')
  if (!post) throw data({ backHref: '/blog' }, { status: 404 })
  const [rendered, version] = await Promise.all([renderEntry(post), contentVersion(['blog'])])
  return data(
    { post: { ...summarizePost(post), html: rendered.html } },
    { headers: publicCacheHeaders(request, version) },
  )
}

export default function BlogPost({ loaderData: { post } }: Route.ComponentProps) {
  return (
    <main className="mx-auto max-w-3xl px-4 py-12">
      <article>
        <header className="mb-8">
          <p className="text-sm">
            <Link to="/blog" prefetch="intent" className="text-primary underline underline-offset-4">
              ← All posts
            </Link>
          </p>
          <h1 className="mt-4 text-3xl font-bold tracking-tight sm:text-4xl">{post.title}</h1>
          <PostByline author={post.author} date={post.date} readingTime={post.readingTime} />
          <PostTags tags={post.tags} />
        </header>
        {post.image ? <img src={post.image} alt="" className="mb-8 w-full rounded-lg border" /> : null}
        <Prose html={post.html} />
      </article>
    </main>
  )
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <RouteErrorScreen error={error} />
}
