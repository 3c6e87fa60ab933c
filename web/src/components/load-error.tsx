import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert'
import { Button } from '@/components/ui/button'
import { cn } from '@/lib/utils'

/** Shown in place of content that could not load: what went wrong and a retry. */
export function LoadError({ title, onRetry, className }: { title: string; onRetry: () => void; className?: string }) {
  return (
    <Alert variant="destructive" className={cn('text-left', className)}>
      <AlertTitle>{title}</AlertTitle>
      <AlertDescription>
        <Button variant="outline" size="sm" onClick={onRetry} className="mt-2">
          Try again
        </Button>
      </AlertDescription>
    </Alert>
  )
}
