import type { ComponentProps } from 'react'
import { cn } from '@/lib/utils'
import { fieldClass } from './input'

/**
 * A styled native select: the platform's own picker is the most accessible
 * and mobile-friendly choice for short option lists.
 */
export function Select({ className, ...props }: ComponentProps<'select'>) {
  return <select className={cn(fieldClass, 'h-10', className)} {...props} />
}
