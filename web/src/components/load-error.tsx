import type { ReactNode } from 'react'
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert'
import { Button } from '@/components/ui/button'
import { cn } from '@/lib/utils'

/**
 * Shown in place of content that could not load: what went wrong, announced,
 * and a way on — "Try again" when `onRetry` is given, or the `children`
 * (a link elsewhere) when retrying cannot help.
 */
export function LoadError({
  title,
  onRetry,
  children,
  className,
}: {
  title: string
  onRetry?: () => void
  children?: ReactNode
  className?: string
}) {
  return (
    <Alert variant="destructive" role="alert" className={cn('text-left', className)}>
      <AlertTitle>{title}</AlertTitle>
      <AlertDescription className="mt-2 flex flex-wrap gap-2">
        {onRetry ? (
          <Button variant="outline" size="sm" onClick={onRetry}>
            Try again
          </Button>
        ) : null}
        {children}
      </AlertDescription>
    </Alert>
  )
}
