import { Badge } from '~/components/ui/badge'
import { formatLongDate } from '~/utils/long-date'

/** Who wrote a post, when, and how long it takes to read. */
export function PostByline({
  author,
  date,
  readingTime,
}: {
  author: string
  date: string
  readingTime: string
}) {
  return (
    <p className="mt-1 text-sm text-muted-foreground">
      <span>{author}</span>
      <span aria-hidden> · </span>
      <time dateTime={date}>{formatLongDate(date)}</time>
      <span aria-hidden> · </span>
      <span>{readingTime}</span>
    </p>
  )
}

/** A post's tags, as a list. */
export function PostTags({ tags }: { tags: string[] }) {
  if (tags.length === 0) return null
  return (
    <ul aria-label="Tags" className="mt-3 flex flex-wrap gap-2">
      {tags.map((tag) => (
        <Badge as="li" key={tag} tone="outline" weight="normal" isWide>
          {tag}
        </Badge>
      ))}
    </ul>
  )
}
