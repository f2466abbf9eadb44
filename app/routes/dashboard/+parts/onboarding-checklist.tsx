import { Link } from 'react-router'
import { Icon } from '~/components/ui/icon'
import type { Onboarding } from '~/services/onboarding.server'
import { cn } from '~/utils/cn'

const ITEMS = [
  { key: 'profile', label: 'Confirm your name and avatar', step: 'profile' },
  { key: 'task', label: 'Create your first task', step: 'task' },
  { key: 'share', label: 'Share a task or make it public', step: 'share' },
] as const

/** Shown on the dashboard until onboarding is finished; each item opens its step. */
export function OnboardingChecklist({ checklist }: { checklist: Onboarding['checklist'] }) {
  const done = ITEMS.filter((item) => checklist[item.key]).length
  return (
    <section aria-labelledby="checklist-title" className="rounded-lg border bg-card p-5">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h2 id="checklist-title" className="text-lg font-semibold">
          Get started
        </h2>
        <p className="text-sm text-muted-foreground">
          {done} of {ITEMS.length} done
        </p>
      </div>
      <ul className="mt-3 flex flex-col gap-2">
        {ITEMS.map((item) => {
          const isDone = checklist[item.key]
          return (
            <li key={item.key} className="flex items-center gap-2">
              <span
                className={cn(
                  'inline-flex size-5 items-center justify-center rounded-full border',
                  isDone && 'border-primary bg-primary text-primary-foreground',
                )}
              >
                {isDone ? <Icon name="check" className="size-3" /> : null}
              </span>
              <Link
                to={`/onboarding?step=${item.step}`}
                className={cn(
                  'underline-offset-4 hover:underline',
                  isDone && 'text-muted-foreground line-through',
                )}
              >
                {item.label}
                <span className="sr-only">{isDone ? ' (done)' : ' (to do)'}</span>
              </Link>
            </li>
          )
        })}
      </ul>
      <Link
        to="/onboarding?step=explore"
        className="mt-4 inline-block text-sm text-primary underline-offset-4 hover:underline"
      >
        Finish setting up
      </Link>
    </section>
  )
}
