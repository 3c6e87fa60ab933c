import { cva, type VariantProps } from 'class-variance-authority'
import type { ComponentProps } from 'react'
import { cn } from '@/lib/utils'

const alertVariants = cva('relative w-full rounded-lg border p-4 text-sm [&>svg]:absolute [&>svg]:left-4 [&>svg]:top-4 [&>svg]:size-5 [&>svg~*]:pl-8', {
  variants: {
    variant: {
      default: 'border-border bg-background text-foreground',
      warning: 'border-yellow-400 bg-yellow-50 text-yellow-900 [&>svg]:text-yellow-700',
      destructive: 'border-red-300 bg-red-50 text-red-900 [&>svg]:text-red-700',
      success: 'border-emerald-300 bg-emerald-50 text-emerald-900 [&>svg]:text-emerald-700',
    },
  },
  defaultVariants: { variant: 'default' },
})

export function Alert({ className, variant, ...props }: ComponentProps<'div'> & VariantProps<typeof alertVariants>) {
  return <div className={cn(alertVariants({ variant }), className)} {...props} />
}

/** An alert's heading: an h2 unless it is what the page is about (`as="h1"`). */
export function AlertTitle({ as: Heading = 'h2', className, children, ...props }: ComponentProps<'h2'> & { as?: 'h1' | 'h2' }) {
  return (
    <Heading className={cn('mb-1 font-semibold leading-tight', className)} {...props}>
      {children}
    </Heading>
  )
}

export function AlertDescription({ className, ...props }: ComponentProps<'div'>) {
  return <div className={cn('text-sm [&_p]:leading-relaxed', className)} {...props} />
}
