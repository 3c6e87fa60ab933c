import type { ComponentProps } from 'react'
import { cn } from '@/lib/utils'

/**
 * A data table. The wrapper scrolls horizontally so a wide table never
 * widens the page on small screens; it is focusable so keyboard users can
 * scroll it too.
 */
export function Table({ className, label, ...props }: ComponentProps<'table'> & { label: string }) {
  return (
    // A scrolling region is reached by keyboard only through its own tab
    // stop (WCAG 2.1.1; axe's scrollable-region-focusable), so the rule's
    // "interactive elements only" does not hold here.
    // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex
    <div role="region" aria-label={label} tabIndex={0} className="relative w-full overflow-x-auto rounded-lg border border-border focus-visible:outline-3 focus-visible:outline-ring">
      <table className={cn('w-full caption-bottom border-collapse text-sm', className)} {...props} />
    </div>
  )
}

export function TableCaption({ className, ...props }: ComponentProps<'caption'>) {
  return <caption className={cn('sr-only', className)} {...props} />
}

export function TableHead({ className, ...props }: ComponentProps<'th'>) {
  return <th scope="col" className={cn('h-11 whitespace-nowrap bg-muted px-3 text-left align-middle font-semibold text-foreground', className)} {...props} />
}

export function TableRow({ className, ...props }: ComponentProps<'tr'>) {
  return <tr className={cn('border-t border-border', className)} {...props} />
}

export function TableCell({ className, ...props }: ComponentProps<'td'>) {
  return <td className={cn('px-3 py-2.5 align-middle', className)} {...props} />
}
