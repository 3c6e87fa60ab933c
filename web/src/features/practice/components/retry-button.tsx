import { Button } from '@/components/ui/button'
import { errorMessage } from '@/lib/api-client'
import { useRetryAnswer } from '../api/retry-answer'

/** Processes a failed answer of the student's session again, from its recording (the answer card's retry). */
export function RetryButton({ sessionId, itemId }: { sessionId: string; itemId: string }) {
  const retry = useRetryAnswer()
  return (
    <div className="grid justify-items-start gap-1 print:hidden">
      <Button variant="outline" size="sm" onClick={() => retry.mutate({ sessionId, itemId })} disabled={retry.isPending}>
        Retry
      </Button>
      {retry.isError ? (
        <p role="alert" className="text-sm text-destructive">
          {errorMessage(retry.error)}
        </p>
      ) : null}
    </div>
  )
}
