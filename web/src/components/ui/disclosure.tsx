import { ChevronRight } from 'lucide-react'
import { useId, useState, type ReactNode } from 'react'
import { cn } from '@/lib/utils'

/**
 * A button that shows and hides what follows it (the WAI-ARIA disclosure
 * pattern): aria-expanded says which, aria-controls names the panel, and
 * Enter and Space work as on any button. A closed panel is display: none,
 * so neither the eye nor a screen reader meets it, except in print, where
 * every panel is open: a printed page has nothing to press.
 */
export function Disclosure({
  label,
  children,
  defaultOpen = false,
  className,
  buttonClassName,
  panelClassName,
}: {
  label: ReactNode
  children: ReactNode
  defaultOpen?: boolean
  className?: string
  buttonClassName?: string
  panelClassName?: string
}) {
  const [open, setOpen] = useState(defaultOpen)
  const panelId = useId()
  return (
    <div className={className}>
      <button
        type="button"
        aria-expanded={open}
        aria-controls={panelId}
        onClick={() => setOpen(!open)}
        className={cn(
          'flex w-full cursor-pointer items-center gap-2 rounded-md text-left font-medium focus-visible:outline-3 focus-visible:outline-offset-2 focus-visible:outline-ring',
          buttonClassName,
        )}
      >
        <ChevronRight aria-hidden="true" className={cn('size-4 shrink-0 transition-transform print:hidden', open && 'rotate-90')} />
        {label}
      </button>
      {/* Inline display: none yields to print:block! (an !important rule) on paper. */}
      <div id={panelId} style={open ? undefined : { display: 'none' }} className={cn('print:block!', panelClassName)}>
        {children}
      </div>
    </div>
  )
}
