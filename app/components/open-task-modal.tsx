import type { ReactNode } from 'react'
import { CommentsSection } from '~/components/comments/comments-section'
import { TaskModal, type TaskModalData } from '~/components/task-modal'
import type { SessionUser } from '~/services/session-user'

/**
 * The task modal as the root renders it when the URL names a task (`?task=<id>`), with its
 * comments. A module of its own so the root can load it lazily: the modal, its owner forms and
 * the comments' editor are JavaScript only pages with an open task need.
 */
export default function OpenTaskModal({
  modal,
  viewer,
  notice,
}: {
  modal: TaskModalData
  viewer: SessionUser | null
  notice: ReactNode
}) {
  return (
    <TaskModal
      key={'task' in modal ? modal.task.id : modal.taskId}
      modal={modal}
      notice={notice}
      comments={
        'task' in modal ? (
          <CommentsSection
            taskId={modal.task.id}
            isPublic={modal.task.isPublic}
            discussion={modal.discussion}
            viewer={viewer}
          />
        ) : null
      }
    />
  )
}
