import { Dialog as Primitive } from 'radix-ui'
import type { ComponentProps } from 'react'
import { X } from 'lucide-react'
import { cn } from '@/lib/utils'

export const Dialog = Primitive.Root
export const DialogTrigger = Primitive.Trigger
export const DialogClose = Primitive.Close

/** The backdrop and centred panel, shared with AlertDialog. */
export const overlayClass = 'fixed inset-0 z-50 bg-slate-950/50'
export const panelClass =
  'fixed left-1/2 top-1/2 z-50 grid w-[calc(100%-2rem)] max-w-lg -translate-x-1/2 -translate-y-1/2 gap-4 rounded-xl border border-border bg-background p-6 shadow-xl'

/**
 * A dialog never taller than the window: what does not fit scrolls inside
 * the panel, under a close button that stays in the panel's corner (it
 * used to scroll away with the content, over the panel's top edge).
 */
export function DialogContent({ className, children, ...props }: ComponentProps<typeof Primitive.Content>) {
  return (
    <Primitive.Portal>
      <Primitive.Overlay className={overlayClass} />
      <Primitive.Content className={cn(panelClass, 'flex max-h-[calc(100dvh-2rem)] flex-col gap-0 p-0', className)} {...props}>
        <div className="grid gap-4 overflow-y-auto p-6">{children}</div>
        <Primitive.Close className="absolute right-3 top-3 rounded-sm bg-background p-1 text-muted-foreground hover:text-foreground">
          <X className="size-4" aria-hidden="true" />
          <span className="sr-only">Close</span>
        </Primitive.Close>
      </Primitive.Content>
    </Primitive.Portal>
  )
}

/** The title and description, kept clear of the close button. */
export function DialogHeader({ className, ...props }: ComponentProps<'div'>) {
  return <div className={cn('flex flex-col gap-1.5 pr-6', className)} {...props} />
}

export function DialogFooter({ className, ...props }: ComponentProps<'div'>) {
  return <div className={cn('flex flex-col-reverse gap-2 sm:flex-row sm:justify-end', className)} {...props} />
}

export function DialogTitle({ className, ...props }: ComponentProps<typeof Primitive.Title>) {
  return <Primitive.Title className={cn('text-lg font-semibold', className)} {...props} />
}

export function DialogDescription({ className, ...props }: ComponentProps<typeof Primitive.Description>) {
  return <Primitive.Description className={cn('text-sm text-muted-foreground', className)} {...props} />
}
