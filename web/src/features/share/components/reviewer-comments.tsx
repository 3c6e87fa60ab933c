import { useId } from 'react'
import { Button } from '@/components/ui/button'
import { errorMessage } from '@/lib/api-client'
import { sessionTime } from '@/lib/session-time'
import { toast } from '@/lib/toast'
import { useShareComments, type ShareComment } from '../api/list-share-comments'
import { useReportShareComment } from '../api/report-share-comment'

/** What a comment is about: "Question 2: Why dentistry?" or the whole session. */
export function commentSubject(itemIndex: number | null | undefined, questions: readonly string[]): string {
  if (itemIndex == null) return 'The whole session'
  const question = questions[itemIndex]
  return question ? `Question ${itemIndex + 1}: ${question}` : `Question ${itemIndex + 1}`
}

function CommentItem({ comment, questions, savedSessionId }: { comment: ShareComment; questions: readonly string[]; savedSessionId: string }) {
  const report = useReportShareComment(savedSessionId)
  return (
    <li className="grid gap-2 rounded-md border p-3">
      <p className="text-sm font-medium break-words">{commentSubject(comment.itemIndex, questions)}</p>
      <p className="break-words whitespace-pre-wrap">{comment.body}</p>
      <div className="flex flex-wrap items-center justify-between gap-2 text-sm text-muted-foreground">
        <span>
          {comment.authorName} · {sessionTime(comment.createdAt)}
        </span>
        {comment.reportedAt ? (
          <span>Reported to Whitecoat</span>
        ) : (
          <Button
            variant="ghost"
            size="sm"
            disabled={report.isPending}
            aria-label={`Report ${comment.authorName}’s comment to Whitecoat`}
            onClick={() =>
              report.mutate(comment.id, {
                onSuccess: () => toast.success('Comment reported. Whitecoat will look at it.'),
                onError: (err) => toast.error(errorMessage(err)),
              })
            }
          >
            Report
          </Button>
        )}
      </div>
    </li>
  )
}

/**
 * On a saved session: what reviewers wrote through its links, oldest
 * first, each with a Report action (an admin reads a comment only once
 * it is reported). questions are the session's, in its order.
 */
export function ReviewerComments({ savedSessionId, questions }: { savedSessionId: string; questions: readonly string[] }) {
  const comments = useShareComments(savedSessionId)
  const headingId = useId()
  return (
    <section aria-labelledby={headingId} className="grid gap-3">
      <h2 id={headingId} className="text-xl font-semibold">
        Comments from reviewers
      </h2>
      {comments.isError ? (
        <p role="alert" className="text-sm text-destructive">
          {errorMessage(comments.error)}
        </p>
      ) : comments.data && comments.data.length > 0 ? (
        <ul className="grid gap-2">
          {comments.data.map((comment) => (
            <CommentItem key={comment.id} comment={comment} questions={questions} savedSessionId={savedSessionId} />
          ))}
        </ul>
      ) : comments.data ? (
        <p className="text-sm text-muted-foreground">No comments yet. When a reviewer comments, it appears here and we email you.</p>
      ) : null}
    </section>
  )
}
