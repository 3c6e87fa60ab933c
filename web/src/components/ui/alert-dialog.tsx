import { AlertDialog as Primitive } from 'radix-ui'
import type { ComponentProps } from 'react'
import { cn } from '@/lib/utils'
import { buttonVariants } from './button'
import { overlayClass, panelClass } from './dialog'

/**
 * A confirmation dialog for destructive actions. Unlike Dialog it cannot be
 * dismissed by clicking outside, and Radix focuses Cancel first so Enter
 * never confirms by accident.
 */
export const AlertDialog = Primitive.Root
export const AlertDialogTrigger = Primitive.Trigger

export function AlertDialogContent({ className, ...props }: ComponentProps<typeof Primitive.Content>) {
  return (
    <Primitive.Portal>
      <Primitive.Overlay className={overlayClass} />
      <Primitive.Content className={cn(panelClass, 'max-w-md', className)} {...props} />
    </Primitive.Portal>
  )
}

export function AlertDialogTitle({ className, ...props }: ComponentProps<typeof Primitive.Title>) {
  return <Primitive.Title className={cn('text-lg font-semibold', className)} {...props} />
}

export function AlertDialogDescription({ className, ...props }: ComponentProps<typeof Primitive.Description>) {
  return <Primitive.Description className={cn('text-sm text-muted-foreground', className)} {...props} />
}

export function AlertDialogCancel({ className, ...props }: ComponentProps<typeof Primitive.Cancel>) {
  return <Primitive.Cancel className={cn(buttonVariants({ variant: 'outline' }), className)} {...props} />
}

export function AlertDialogAction({ className, ...props }: ComponentProps<typeof Primitive.Action>) {
  return <Primitive.Action className={cn(buttonVariants({ variant: 'destructive' }), className)} {...props} />
}
