import type { MouseEvent } from 'react'
import { useNavigate } from 'react-router'
import { cn } from '@/lib/utils'

/**
 * A public page's words: HTML the server rendered from the repository's
 * own Markdown (content/), which holds no raw HTML, so it is trusted.
 * Links to the site's own pages move within the app instead of reloading
 * it.
 */
export function Article({ html, className }: { html: string; className?: string }) {
  const navigate = useNavigate()
  function onClick(e: MouseEvent<HTMLDivElement>) {
    const link = (e.target as HTMLElement).closest('a')
    const href = link?.getAttribute('href')
    if (!href?.startsWith('/') || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return
    e.preventDefault()
    void navigate(href)
  }
  // The handler only routes clicks that reach a link inside, so the links
  // stay the keyboard's way in (Enter on a link is a click): the div itself
  // is not interactive, which is what the two rules would have it be.
  // eslint-disable-next-line jsx-a11y/click-events-have-key-events, jsx-a11y/no-static-element-interactions
  return <div className={cn('article', className)} onClick={onClick} dangerouslySetInnerHTML={{ __html: html }} />
}
