import type { UIMessageChunk } from 'ai'
import { and, asc, eq, gt, lt, ne } from 'drizzle-orm'
import type { Database } from '~/db/client.server'
import { chatStreamChunks, chatStreams } from '~/db/schema'
import { commit } from '~/db/write.server'
import { Conflict } from './errors'

/**
 * Answers being generated, kept in the database chunk by chunk, so the answer outlives the
 * request that asked for it: a reload, a second tab or a dropped connection replays what was
 * written and tails the rest, on whichever instance it lands. A Stop is a row update the
 * generating instance sees at its next flush. No Redis: the database every instance already
 * shares is the bus.
 */

export const ONE_GENERATION_AT_A_TIME =
  'An answer is still being written in this chat. Wait for it, or stop it first.'
/** How often buffered chunks are written (and a Stop is noticed). */
export const FLUSH_MS = 75
/** How often a tail looks for new chunks. */
const POLL_MS = 60
/** A running stream untouched this long lost its instance (a crash, a deploy). */
const ABANDONED_AFTER_MS = 30_000

/** Opens a stream for a chat; Conflict while another one runs there. */
export async function openStream(db: Database, chatId: string): Promise<string> {
  const now = Date.now()
  await commit(db, {
    abandoned: db
      .update(chatStreams)
      .set({ status: 'failed' })
      .where(
        and(
          eq(chatStreams.chatId, chatId),
          eq(chatStreams.status, 'running'),
          lt(chatStreams.updatedAt, new Date(now - ABANDONED_AFTER_MS)),
        ),
      ),
  })
  const streamId = crypto.randomUUID()
  try {
    await commit(db, {
      // Only the latest stream of a chat can be resumed; older ones' chunks go.
      older: db
        .delete(chatStreams)
        .where(and(eq(chatStreams.chatId, chatId), ne(chatStreams.status, 'running'))),
      stream: db.insert(chatStreams).values({ id: streamId, chatId }),
    })
  } catch (error) {
    if (String((error as { cause?: unknown })?.cause ?? error).includes('UNIQUE')) {
      throw new Conflict(ONE_GENERATION_AT_A_TIME)
    }
    throw error
  }
  return streamId
}

/** The stream now running in a chat, if any (one whose instance went away does not count). */
export async function runningStream(db: Database, chatId: string): Promise<string | null> {
  const [row] = await db
    .select({ id: chatStreams.id })
    .from(chatStreams)
    .where(
      and(
        eq(chatStreams.chatId, chatId),
        eq(chatStreams.status, 'running'),
        gt(chatStreams.updatedAt, new Date(Date.now() - ABANDONED_AFTER_MS)),
      ),
    )
    .limit(1)
  return row?.id ?? null
}

/** Asks the running generation of a chat to stop, wherever it runs; false when none runs. */
export async function requestStop(db: Database, chatId: string) {
  const { stopped } = await commit(db, {
    stopped: db
      .update(chatStreams)
      .set({ stopRequestedAt: new Date() })
      .where(and(eq(chatStreams.chatId, chatId), eq(chatStreams.status, 'running'))),
  })
  return stopped.rowsAffected > 0
}

/**
 * Writes a generation's chunks in batches (every FLUSH_MS), and at each flush tells `onStop`
 * whether someone asked it to stop.
 */
export class ChunkWriter {
  #buffer: UIMessageChunk[] = []
  #seq = 0
  #timer: ReturnType<typeof setInterval>
  #flushing: Promise<void> = Promise.resolve()

  constructor(
    private readonly db: Database,
    readonly streamId: string,
    private readonly onStop: () => void,
  ) {
    this.#timer = setInterval(() => void this.flush(), FLUSH_MS)
  }

  push(chunk: UIMessageChunk) {
    this.#buffer.push(chunk)
  }

  /** Writes what is buffered; flushes run one after another, so chunks keep their order. */
  flush() {
    this.#flushing = this.#flushing
      .then(() => this.#write())
      .catch((error) => console.error('Chat stream flush failed', error))
    return this.#flushing
  }

  async #write() {
    const batch = this.#buffer.splice(0)
    const rows = batch.map((chunk) => ({
      streamId: this.streamId,
      seq: ++this.#seq,
      chunk: JSON.stringify(chunk),
    }))
    const { touched } = await commit(this.db, {
      touched: this.db
        .update(chatStreams)
        .set({ updatedAt: new Date() })
        .where(eq(chatStreams.id, this.streamId))
        .returning({ stopRequestedAt: chatStreams.stopRequestedAt }),
    })
    const [state] = touched.rows
    // No row: the chat was deleted meanwhile, which stops its answer too.
    if (!state || state[chatStreams.stopRequestedAt.name] != null) this.onStop()
    if (state && rows.length > 0)
      await commit(this.db, { chunks: this.db.insert(chatStreamChunks).values(rows) })
  }

  /** Writes the rest and marks the stream finished: tails end once they have read it all. */
  async close(status: 'done' | 'stopped' | 'failed') {
    clearInterval(this.#timer)
    await this.flush()
    await commit(this.db, {
      finished: this.db.update(chatStreams).set({ status }).where(eq(chatStreams.id, this.streamId)),
    })
  }
}

/**
 * Every chunk of a stream in order, from the first, then each new one as it is written, until
 * the stream has finished and all of it was read. Cancelling (the client went away) only ends
 * this reader; the generation goes on.
 */
export function tailStream(db: Database, streamId: string, pollMs = POLL_MS): ReadableStream<UIMessageChunk> {
  let seq = 0
  let isCancelled = false
  return new ReadableStream<UIMessageChunk>({
    async pull(controller) {
      while (!isCancelled) {
        const [state] = await db
          .select({ status: chatStreams.status, updatedAt: chatStreams.updatedAt })
          .from(chatStreams)
          .where(eq(chatStreams.id, streamId))
        const rows = await db
          .select({ seq: chatStreamChunks.seq, chunk: chatStreamChunks.chunk })
          .from(chatStreamChunks)
          .where(and(eq(chatStreamChunks.streamId, streamId), gt(chatStreamChunks.seq, seq)))
          .orderBy(asc(chatStreamChunks.seq))
          .limit(500)
        if (rows.length > 0) {
          for (const row of rows) controller.enqueue(JSON.parse(row.chunk) as UIMessageChunk)
          seq = rows.at(-1)?.seq ?? seq
          return
        }
        // The status was read before the chunks: a finished stream had written them all by then.
        const isAbandoned = (state?.updatedAt.getTime() ?? 0) < Date.now() - ABANDONED_AFTER_MS
        if (state?.status !== 'running' || isAbandoned) {
          controller.close()
          return
        }
        await new Promise((resolve) => setTimeout(resolve, pollMs))
      }
    },
    cancel() {
      isCancelled = true
    },
  })
}

/** Reads a stream to its end (the page without JavaScript shows the whole answer at once). */
export async function waitForStream(db: Database, streamId: string) {
  const reader = tailStream(db, streamId).getReader()
  while (!(await reader.read()).done) {
    // Only the end matters here; the saved message holds the answer.
  }
}
