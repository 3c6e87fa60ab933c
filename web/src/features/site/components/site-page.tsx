import type { ReactNode } from 'react'
import { LoadError } from '@/components/load-error'
import { PageStatus } from '@/components/ui/page-status'
import type { SitePage } from '../api/get-site-page'
import { Article } from './article'

/** Pages with this many sections or more get a table of contents. */
const CONTENTS_FROM = 4

/** The sections of a page, as links to their headings. */
function Contents({ sections }: { sections: SitePage['headings'] }) {
  return (
    <nav aria-labelledby="contents-title" className="rounded-lg border border-border p-4">
      <h2 id="contents-title" className="text-sm font-semibold uppercase tracking-wide text-muted-foreground">
        On this page
      </h2>
      <ol className="mt-2 grid gap-1 text-sm">
        {sections.map((h) => (
          <li key={h.id}>
            <a href={`#${h.id}`} className="text-primary underline-offset-4 hover:underline">
              {h.text}
            </a>
          </li>
        ))}
      </ol>
    </nav>
  )
}

/**
 * A public page from content/: its title, description and sections, with
 * `aside` (an illustration, a call to action) where the page needs one.
 */
export function SitePageView({
  page,
  eyebrow,
  aside,
  children,
}: {
  page: SitePage
  eyebrow?: string
  aside?: ReactNode
  children?: ReactNode
}) {
  const sections = page.headings.filter((h) => h.level === 2)
  return (
    <article className="mx-auto grid max-w-5xl gap-8 px-4 py-10 sm:py-14">
      <title>{`${page.title} · Whitecoat`}</title>
      <header className="grid gap-3">
        {eyebrow ? <p className="text-sm font-semibold uppercase tracking-wide text-primary">{eyebrow}</p> : null}
        <h1 className="text-3xl font-bold tracking-tight sm:text-4xl">{page.title}</h1>
        <p className="max-w-3xl text-lg text-muted-foreground">{page.description}</p>
      </header>
      {aside}
      {sections.length >= CONTENTS_FROM ? (
        <div className="grid gap-8 lg:grid-cols-[minmax(0,1fr)_16rem] lg:items-start">
          <div className="lg:sticky lg:top-24 lg:col-start-2 lg:row-start-1">
            <Contents sections={sections} />
          </div>
          <Article html={page.html} className="lg:col-start-1 lg:row-start-1" />
        </div>
      ) : (
        <Article html={page.html} />
      )}
      {children}
    </article>
  )
}

/** While a public page loads, or when it cannot. */
export function SitePageState({ isPending, onRetry }: { isPending: boolean; onRetry: () => void }) {
  if (isPending) return <PageStatus>Loading...</PageStatus>
  return (
    <div className="mx-auto max-w-3xl px-4 py-12">
      <LoadError title="This page could not be loaded." onRetry={onRetry} />
    </div>
  )
}
