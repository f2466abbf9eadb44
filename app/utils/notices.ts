/**
 * How notifications are named in words, on the inbox and in the e-mail of missed ones: as
 * mentions while they all are, else as notifications (an assignment is not a mention).
 */
export type Notice = { type?: 'mention' | 'assignment' }

export function noticeNoun(notices: readonly Notice[], count = notices.length) {
  const noun = notices.every((notice) => notice.type !== 'assignment') ? 'mention' : 'notification'
  return count === 1 ? noun : `${noun}s`
}
