import { useId, useState, type FormEvent } from 'react'
import { failures } from '@/api/failures'
import type { Answer } from '@/components/answer/answer'
import { AnswerCard } from '@/components/answer/answer-card'
import { limits } from '@/api/limits'
import { Badge } from '@/components/ui/badge'
import { Button } from '@/components/ui/button'
import { FormStatus } from '@/components/ui/form-status'
import { Label } from '@/components/ui/label'
import { PageStatus } from '@/components/ui/page-status'
import { Textarea } from '@/components/ui/textarea'
import { ApiError, errorMessage } from '@/lib/api-client'
import { scoreVariant } from '@/lib/score'
import { sessionTime } from '@/lib/session-time'
import { useCommentOnSharedSession } from '../api/comment-on-shared-session'
import { useReview, type ReviewerComment } from '../api/open-shared-session'

const day = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' })

/** Each way a link can fail to open gets its own heading; the words under it are the server's. */
const CLOSED_HEADING: Record<string, string> = {
  [failures.shareLinkExpired.type]: 'This link has expired',
  [failures.shareLinkRevoked.type]: 'This link was turned off',
  [failures.shareLinkNotFound.type]: 'This link does not work',
}

function CommentForm({ token, itemIndex, label }: { token: string; itemIndex?: number; label: string }) {
  const [body, setBody] = useState('')
  const [sent, setSent] = useState(false)
  const id = useId()
  const comment = useCommentOnSharedSession(token)

  function onSubmit(e: FormEvent) {
    e.preventDefault()
    setSent(false)
    comment.mutate(
      { token, itemIndex, body },
      {
        onSuccess: () => {
          setBody('')
          setSent(true)
        },
      },
    )
  }

  return (
    <form onSubmit={onSubmit} className="grid gap-2">
      <Label htmlFor={id}>{label}</Label>
      <Textarea
        id={id}
        value={body}
        onChange={(e) => setBody(e.target.value)}
        maxLength={limits.commentOnSharedSession.body.body.maxLength}
        required
        rows={3}
      />
      <div className="flex flex-wrap items-center gap-3">
        <Button type="submit" disabled={comment.isPending}>
          Add comment
        </Button>
        <FormStatus
          status={comment.isPending ? 'Sending...' : sent ? 'Comment added. The student will be emailed.' : null}
          error={comment.isError ? errorMessage(comment.error) : null}
        />
      </div>
    </form>
  )
}

function Comments({ comments }: { comments: readonly ReviewerComment[] }) {
  if (comments.length === 0) return null
  return (
    <ul aria-label="Your comments" className="grid gap-2">
      {comments.map((c) => (
        <li key={c.id} className="rounded-md bg-muted p-3">
          <p className="break-words whitespace-pre-wrap">{c.body}</p>
          <p className="mt-1 text-xs text-muted-foreground">
            {c.authorName} · {sessionTime(c.createdAt)}
          </p>
        </li>
      ))}
    </ul>
  )
}

/**
 * One answer as the student sees it in their saved session (the shared
 * answer card: marks, failures, "no meaningful response" and all), with
 * the reviewer's comments on it underneath.
 */
function ReviewedAnswer({ item, index, token, comments, canComment }: { item: Answer; index: number; token: string; comments: readonly ReviewerComment[]; canComment: boolean }) {
  return (
    <AnswerCard answer={item} id={String(index)} number={index + 1}>
      <Comments comments={comments} />
      {canComment ? <CommentForm token={token} itemIndex={index} label={`Your comment on question ${index + 1}`} /> : null}
    </AnswerCard>
  )
}

function ClosedLink({ type, message }: { type?: string; message: string }) {
  return (
    <div className="grid gap-3">
      <h1 className="text-2xl font-bold tracking-tight">{CLOSED_HEADING[type ?? ''] ?? 'This session cannot be shown'}</h1>
      <p>{message}</p>
    </div>
  )
}

/** The page a share link opens: the session, read-only, with a comment box under each answer and one for the whole session. */
export function ReviewPage({ token }: { token: string }) {
  const review = useReview(token)
  if (!token) return <ClosedLink type={failures.shareLinkNotFound.type} message={failures.shareLinkNotFound.message} />
  if (review.isPending) return <PageStatus>Loading...</PageStatus>
  if (review.isError) {
    return <ClosedLink type={review.error instanceof ApiError ? review.error.problem.type : undefined} message={errorMessage(review.error)} />
  }
  const r = review.data
  const canComment = r.commentsLeft > 0
  const byItem = (index: number | undefined) => r.comments.filter((c) => (c.itemIndex ?? undefined) === index)
  return (
    <div className="grid gap-6">
      <title>{`${r.studentFirstName}’s practice session · Whitecoat`}</title>
      <div className="grid gap-2">
        <h1 className="text-3xl font-bold tracking-tight break-words">{r.studentFirstName ? `${r.studentFirstName}’s practice session` : 'A practice session'}</h1>
        <p className="text-muted-foreground">
          “{r.session.title}”, practiced {sessionTime(r.session.createdAt)}
          {r.session.scored ? (
            <>
              {' '}
              · average score <Badge variant={scoreVariant(r.session.overallAvg)}>{Math.round(r.session.overallAvg)}</Badge>
            </>
          ) : null}
        </p>
        <p className="text-sm">
          Shared with {r.reviewerName}. Your comments appear under that name.{' '}
          {r.expiresAt ? `The link works until ${day.format(new Date(r.expiresAt))}.` : 'The link works until the student turns it off.'}
        </p>
        <p className="text-sm text-muted-foreground">You see the questions, transcripts, scores and feedback. Recordings are never kept.</p>
        {!canComment ? <p className="text-sm font-medium">No more comments can be added through this link.</p> : null}
      </div>
      <ol className="grid gap-4">
        {r.session.items.map((item, i) => (
          <li key={i}>
            <ReviewedAnswer item={item} index={i} token={token} comments={byItem(i)} canComment={canComment} />
          </li>
        ))}
      </ol>
      <section aria-labelledby="overall-comment" className="grid gap-3">
        <h2 id="overall-comment" className="text-xl font-semibold">
          Overall comment
        </h2>
        <Comments comments={byItem(undefined)} />
        {canComment ? <CommentForm token={token} label="Your comment on the whole session" /> : null}
      </section>
    </div>
  )
}
