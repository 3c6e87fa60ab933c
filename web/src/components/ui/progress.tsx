import type { ComponentProps } from 'react'
import { cn } from '@/lib/utils'

/**
 * A determinate progress bar in the app's colours (a native <progress> is
 * styled by each browser, bright green in Chromium). Needs an aria-label.
 */
export function Progress({ value, className, ...props }: ComponentProps<'div'> & { value: number; 'aria-label': string }) {
  const percent = Math.min(100, Math.max(0, Math.round(value)))
  return (
    <div
      role="progressbar"
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={percent}
      className={cn('h-2 w-full overflow-hidden rounded-full bg-muted', className)}
      {...props}
    >
      <div className="h-full rounded-full bg-primary transition-[width] duration-200 motion-reduce:transition-none" style={{ width: `${percent}%` }} />
    </div>
  )
}
