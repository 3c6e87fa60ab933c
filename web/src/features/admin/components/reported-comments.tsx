import { errorMessage } from '@/lib/api-client'
import { sessionTime } from '@/lib/session-time'
import { useReportedComments } from '../api/list-reported-comments'

/**
 * Reviewers' comments that students reported: the only comments an admin
 * can read. The student is named by account id, to look up in the table.
 */
export function ReportedComments() {
  const reported = useReportedComments()
  return (
    <section aria-labelledby="reported-title" className="grid gap-3">
      <h2 id="reported-title" className="text-xl font-semibold">
        Reported comments
      </h2>
      {reported.isError ? (
        <p role="alert" className="text-sm text-destructive">
          {errorMessage(reported.error)}
        </p>
      ) : reported.data && reported.data.length > 0 ? (
        <ul className="grid gap-2">
          {reported.data.map((c) => (
            <li key={c.id} className="grid gap-1 rounded-md border p-3">
              <p className="break-words whitespace-pre-wrap">{c.body}</p>
              <p className="text-xs text-muted-foreground">
                By {c.authorName} on {sessionTime(c.createdAt)}; reported {c.reportedAt ? sessionTime(c.reportedAt) : ''} by student {c.studentId}
              </p>
            </li>
          ))}
        </ul>
      ) : reported.data ? (
        <p className="text-sm text-muted-foreground">No comments have been reported.</p>
      ) : null}
    </section>
  )
}
