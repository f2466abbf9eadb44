import { CHART_FILLS, type ChartDatum, ChartFrame, type ChartTone } from './chart-frame'

/**
 * Horizontal bars for a few categories (tasks by status, by priority). The labels and values are
 * HTML beside the SVG bars, so they keep their size on a phone while the bars stretch.
 */
export function BarList({
  title,
  description,
  data,
  columns,
}: {
  title: string
  description: string
  data: (ChartDatum & { tone: ChartTone })[]
  columns: [string, string]
}) {
  const max = Math.max(1, ...data.map((datum) => datum.value))
  return (
    <ChartFrame title={title} description={description} data={data} columns={columns}>
      <div className="grid grid-cols-[auto_1fr_auto] items-center gap-x-3 gap-y-2 text-sm">
        {data.map((datum) => (
          <div key={datum.label} className="contents">
            <span className="text-muted-foreground">{datum.label}</span>
            <svg viewBox="0 0 100 10" preserveAspectRatio="none" className="h-3 w-full" aria-hidden="true">
              <rect width="100" height="10" rx="1" className="fill-muted" />
              <rect
                width={(datum.value / max) * 100}
                height="10"
                rx="1"
                className={CHART_FILLS[datum.tone]}
              />
            </svg>
            <span className="text-right font-medium tabular-nums">{datum.value}</span>
          </div>
        ))}
      </div>
    </ChartFrame>
  )
}
