import type { FormEvent } from 'react'
import type { ReactionType } from '~/domain/constants'
import type { CommentView } from '~/services/comment-views.server'
import { cn } from '~/utils/cn'
import { CommentForm, useCommentFetcher } from './comment-action'

/** The four reactions under a comment, each a form that toggles the viewer's own. */

const REACTIONS: { type: ReactionType; emoji: string; label: string }[] = [
  { type: 'thumbsup', emoji: '👍', label: 'Thumbs up' },
  { type: 'heart', emoji: '❤️', label: 'Heart' },
  { type: 'check', emoji: '✅', label: 'Check' },
  { type: 'fire', emoji: '🔥', label: 'Fire' },
]

export function Reactions({
  comment,
  viewerId,
  canReact,
}: {
  comment: CommentView
  viewerId: string | null
  canReact: boolean
}) {
  const reactions = JSON.parse(comment.reactions) as { type: ReactionType; userId: string }[]
  return (
    <ul className="flex flex-wrap gap-1" aria-label="Reactions">
      {REACTIONS.map((reaction) => {
        const given = reactions.filter((r) => r.type === reaction.type)
        return (
          <li key={reaction.type}>
            <ReactionButton
              comment={comment}
              reaction={reaction}
              count={given.length}
              isMine={viewerId !== null && given.some((r) => r.userId === viewerId)}
              canReact={canReact}
            />
          </li>
        )
      })}
    </ul>
  )
}

function ReactionButton({
  comment,
  reaction,
  count,
  isMine,
  canReact,
}: {
  comment: CommentView
  reaction: (typeof REACTIONS)[number]
  count: number
  isMine: boolean
  canReact: boolean
}) {
  const fetcher = useCommentFetcher()
  // While the toggle is in flight, show its outcome (an optimistic toggle).
  const isToggling = fetcher.state !== 'idle'
  const shownMine = isToggling ? !isMine : isMine
  const shownCount = isToggling ? count + (isMine ? -1 : 1) : count
  const classes = cn(
    'inline-flex h-7 items-center gap-1 rounded-full border px-2 text-xs tabular-nums transition-colors',
    shownMine ? 'border-primary/60 bg-primary/10 text-primary' : 'hover:bg-muted',
  )
  // Holds the count the button shows, so the name contains its visible text (WCAG 2.5.3).
  const label = `${reaction.label}: ${shownCount}`
  if (!canReact) {
    return (
      <span className={classes} role="img" aria-label={label}>
        <span aria-hidden>{reaction.emoji}</span>
        <span aria-hidden>{shownCount}</span>
      </span>
    )
  }
  return (
    <CommentForm
      fetcher={fetcher}
      intent="react"
      fields={{ commentId: comment.id, reactionType: reaction.type }}
      onSubmit={preventDoubleToggle(isToggling)}
    >
      <button type="submit" className={classes} aria-pressed={shownMine} aria-label={label}>
        <span aria-hidden>{reaction.emoji}</span>
        <span aria-hidden>{shownCount}</span>
      </button>
    </CommentForm>
  )
}

/** A second click while the first toggle is in flight would cancel it; ignore it instead. */
function preventDoubleToggle(isToggling: boolean) {
  return (event: FormEvent) => {
    if (isToggling) event.preventDefault()
  }
}
