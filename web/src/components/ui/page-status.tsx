import { cn } from '@/lib/utils'

/** A centred, announced status line for whole-page waits ("Loading...", "Checking access…"). */
export function PageStatus({ children, className }: { children: string; className?: string }) {
  return (
    <div role="status" aria-live="polite" className={cn('flex min-h-[40vh] items-center justify-center p-8 text-muted-foreground', className)}>
      {children}
    </div>
  )
}
