/**
 * The quiet sign that live updates are paused: the stream is down and the page checks for
 * changes every few seconds instead. A polite status, so a screen reader mentions it once
 * without interrupting; nothing shows while updates are live.
 */
export function LiveUpdatesPaused({ isPaused }: { isPaused: boolean }) {
  return (
    <p role="status" className="text-xs text-muted-foreground">
      {isPaused ? (
        <>
          <span
            aria-hidden="true"
            className="mr-1.5 inline-block size-1.5 rounded-full bg-amber-500 align-middle"
          />
          Live updates paused, checking every few seconds
        </>
      ) : null}
    </p>
  )
}
