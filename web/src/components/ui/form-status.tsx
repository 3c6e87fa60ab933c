import { cn } from '@/lib/utils'

/**
 * One line under a form telling the user what is happening. A polite live
 * region announces progress ("Logging in...") and success; errors use
 * role="alert" and are prefixed with a cross, as the spec asks.
 */
export function FormStatus({
  status,
  error,
  className,
}: {
  status?: string | null
  error?: string | null
  className?: string
}) {
  return (
    <div className={cn('min-h-6 text-sm', className)}>
      {error ? (
        <p role="alert" className="font-medium text-destructive">
          <span aria-hidden="true">✕ </span>
          {error}
        </p>
      ) : (
        <p role="status" aria-live="polite" className="text-muted-foreground">
          {status ?? ''}
        </p>
      )}
    </div>
  )
}
