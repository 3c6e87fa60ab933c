import { Link } from 'react-router'
import { Button } from '@/components/ui/button'
import type { SitePage } from '../api/get-site-page'
import { SitePageView } from './site-page'

/**
 * A guide: the general part, the profession's own section with its worked
 * example, and a button into setup with the guide's kind of question
 * chosen.
 */
export function GuidePage({ page, displayName }: { page: SitePage; displayName: string }) {
  return (
    <SitePageView page={page} eyebrow={`Guide for ${displayName.toLowerCase()} applicants`}>
      <footer className="grid gap-4 rounded-2xl border border-border bg-accent/40 p-6 sm:flex sm:items-center sm:justify-between">
        <p className="font-medium">Ready to try it out loud?</p>
        <div className="flex flex-col gap-3 sm:flex-row">
          <Button asChild variant="outline">
            <Link to={`/${page.profession}/resources`}>Back to Resources</Link>
          </Button>
          {page.practice ? (
            // The longest label ("Practice a communication scenario") is
            // wider than a 375 px card, so it wraps instead of overflowing.
            <Button asChild size="lg" className="h-auto min-h-11 whitespace-normal py-2 text-center">
              <Link to={page.practice.path}>{page.practice.label}</Link>
            </Button>
          ) : null}
        </div>
      </footer>
    </SitePageView>
  )
}
