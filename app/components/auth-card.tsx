import type { ReactNode } from 'react'

/** The frame every sign-in, sign-up and e-mail page shares. */
export function AuthCard({
  title,
  description,
  children,
  footer,
}: {
  title: string
  description?: ReactNode
  children: ReactNode
  footer?: ReactNode
}) {
  return (
    <main className="mx-auto flex w-full max-w-md flex-col gap-6 px-4 py-16">
      <div className="flex flex-col gap-2 text-center">
        <h1 className="text-2xl font-semibold tracking-tight">{title}</h1>
        {description ? <p className="text-sm text-muted-foreground">{description}</p> : null}
      </div>
      {/* A column with gaps: the provider buttons, the "or" line and the form never touch. */}
      <div className="flex flex-col gap-5 rounded-lg border bg-card p-6 shadow-sm">{children}</div>
      {footer ? <p className="text-center text-sm text-muted-foreground">{footer}</p> : null}
    </main>
  )
}
