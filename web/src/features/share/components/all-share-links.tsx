import { useId } from 'react'
import { Link } from 'react-router'
import { errorMessage } from '@/lib/api-client'
import { useShareLinks } from '../api/list-share-links'
import { LinkRow } from './share-panel'

/**
 * Every link the student made, newest first, each naming its session
 * (reviewPath opens it) and with Turn off while it opens. Nothing is
 * shown until there is a link.
 */
export function AllShareLinks({ reviewPath }: { reviewPath: (savedSessionId: string) => string }) {
  const links = useShareLinks()
  const headingId = useId()
  if (links.isError) {
    return (
      <p role="alert" className="text-sm text-destructive">
        {errorMessage(links.error)}
      </p>
    )
  }
  if (!links.data || links.data.length === 0) return null
  return (
    <section aria-labelledby={headingId} className="grid gap-3">
      <h2 id={headingId} className="text-xl font-semibold">
        Shared for comments
      </h2>
      <ul aria-label="Every link you made" className="grid gap-2">
        {links.data.map((link) => (
          <LinkRow
            key={link.id}
            link={link}
            session={
              <Link to={reviewPath(link.savedSessionId)} className="text-sm font-medium break-words text-primary underline-offset-4 hover:underline">
                {link.savedSessionTitle || 'Untitled Session'}
              </Link>
            }
          />
        ))}
      </ul>
    </section>
  )
}
