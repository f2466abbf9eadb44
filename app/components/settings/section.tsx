import type { SubmissionResult } from '@conform-to/react'
import type { ReactNode } from 'react'

/**
 * What the settings action answers when a form is refused: which form (`intent`) and conform's
 * reply for it. Each section shows only its own form's reply (`resultFor`, app/utils/intent-result.ts).
 */
export type SettingsActionData =
  | { intent: string | null; result: SubmissionResult<string[]> | null }
  | undefined

/** One titled card of a settings page (/settings, /settings/billing), labelled by its heading. */
export function SettingsSection({
  title,
  description,
  children,
}: {
  title: string
  description: string
  children: ReactNode
}) {
  // Suffixed: "delete-account" is also that form's id, and its inputs find their form by id.
  const id = `${title.toLowerCase().replaceAll(' ', '-')}-heading`
  return (
    <section aria-labelledby={id} className="rounded-lg border bg-card p-6">
      <h2 id={id} className="text-lg font-semibold">
        {title}
      </h2>
      <p className="mt-1 text-sm text-muted-foreground">{description}</p>
      <div className="mt-5">{children}</div>
    </section>
  )
}
