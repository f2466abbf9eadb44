import { CHART_FILLS, type ChartDatum, ChartFrame, type ChartTone } from './chart-frame'

/**
 * Columns over time (hours per week, completions per day). The SVG holds only the marks and
 * stretches to its box; the scale and the first, middle and last labels are HTML around it, so
 * text never shrinks with the drawing on a narrow screen.
 */
export function ColumnChart({
  title,
  description,
  data,
  columns,
  unit,
  tone = 'primary',
}: {
  title: string
  description: string
  data: ChartDatum[]
  columns: [string, string]
  /** Appended to the scale's top value: "h" for hours. */
  unit?: string
  tone?: ChartTone
}) {
  const max = Math.max(1, ...data.map((datum) => datum.value))
  const slot = 10
  const width = data.length * slot
  const ticks = [
    { at: 'first', label: data[0]?.label },
    { at: 'middle', label: data[Math.floor((data.length - 1) / 2)]?.label },
    { at: 'last', label: data.at(-1)?.label },
  ]
  return (
    <ChartFrame title={title} description={description} data={data} columns={columns}>
      <div className="flex gap-2 text-xs text-muted-foreground">
        <div className="flex flex-col justify-between text-right tabular-nums">
          <span>
            {max}
            {unit}
          </span>
          <span>0</span>
        </div>
        <svg
          viewBox={`0 0 ${width} 100`}
          preserveAspectRatio="none"
          className="h-36 w-full flex-1"
          aria-hidden="true"
        >
          <rect y="99" width={width} height="1" className="fill-border" />
          <rect y="49.5" width={width} height="0.5" className="fill-border" />
          {data.map((datum, index) => {
            const height = (datum.value / max) * 98
            return (
              <rect
                key={datum.label}
                x={index * slot + slot * 0.15}
                y={99 - height}
                width={slot * 0.7}
                height={height}
                className={CHART_FILLS[tone]}
              >
                <title>{`${datum.label}: ${datum.value}${unit ?? ''}`}</title>
              </rect>
            )
          })}
        </svg>
      </div>
      <div className="ml-6 flex justify-between text-xs text-muted-foreground">
        {ticks.map((tick) => (
          <span key={tick.at}>{tick.label}</span>
        ))}
      </div>
    </ChartFrame>
  )
}
