import type { ReactNode, Ref } from 'react'
import { Card, CardContent, CardDescription, CardFooter, CardHeader } from '@/components/ui/card'

/**
 * The frame shared by the account pages: a centred card with a page
 * heading. A step that replaces another passes headingRef to move the focus
 * to its heading.
 */
export function AuthCard({
  title,
  description,
  children,
  footer,
  headingRef,
}: {
  title: string
  description?: ReactNode
  children: ReactNode
  footer?: ReactNode
  headingRef?: Ref<HTMLHeadingElement>
}) {
  return (
    <div className="mx-auto flex w-full max-w-md flex-col px-4 py-10 sm:py-16">
      <Card>
        <CardHeader>
          <h1 ref={headingRef} tabIndex={headingRef ? -1 : undefined} className="text-2xl font-bold tracking-tight outline-none">
            {title}
          </h1>
          {description ? <CardDescription>{description}</CardDescription> : null}
        </CardHeader>
        <CardContent>{children}</CardContent>
        {footer ? <CardFooter className="flex-col items-start gap-2 text-sm">{footer}</CardFooter> : null}
      </Card>
    </div>
  )
}
