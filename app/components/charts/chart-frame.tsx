import { type ReactNode, useId } from 'react'
import { cn } from '~/utils/cn'

/** The fills charts draw with: the theme's chart colours, which have a dark variant (app/app.css). */
export const CHART_FILLS = {
  primary: 'fill-primary',
  done: 'fill-chart-done',
  active: 'fill-chart-active',
  backlog: 'fill-chart-backlog',
  high: 'fill-chart-high',
  medium: 'fill-chart-medium',
  low: 'fill-chart-low',
} as const

export type ChartTone = keyof typeof CHART_FILLS

export type ChartDatum = { label: string; value: number }

/**
 * What every chart shares: a visible title, the picture as one `role="img"` named by that title
 * and described in words, and the same numbers as a visually hidden table, so a screen reader
 * reads the data rather than a drawing.
 */
export function ChartFrame({
  title,
  description,
  data,
  columns,
  className,
  children,
}: {
  title: string
  description: string
  data: ChartDatum[]
  /** The hidden table's column headers: what the labels are, and what the values are. */
  columns: [string, string]
  className?: string
  children: ReactNode
}) {
  const id = useId()
  return (
    <figure className={cn('flex flex-col gap-3 rounded-lg border bg-card p-5', className)}>
      <figcaption id={`${id}-title`} className="font-medium">
        {title}
      </figcaption>
      <div role="img" aria-labelledby={`${id}-title`} aria-describedby={`${id}-description`}>
        {children}
      </div>
      <p id={`${id}-description`} className="sr-only">
        {description}
      </p>
      <table className="sr-only">
        <caption>{title}</caption>
        <thead>
          <tr>
            <th scope="col">{columns[0]}</th>
            <th scope="col">{columns[1]}</th>
          </tr>
        </thead>
        <tbody>
          {data.map((datum) => (
            <tr key={datum.label}>
              <th scope="row">{datum.label}</th>
              <td>{datum.value}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </figure>
  )
}
