import { BookOpen, Download, Mail } from 'lucide-react'
import { Link } from 'react-router'
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card'
import type { SitePage } from '../api/get-site-page'
import { Article } from './article'

/** Resources (spec §2): the three guides, the three PDFs and office hours. */
export function ResourcesPage({ page }: { page: SitePage }) {
  return (
    <div className="mx-auto grid max-w-5xl gap-12 px-4 py-10 sm:py-14">
      <title>{`${page.title} · Whitecoat`}</title>
      <header className="grid gap-3">
        <h1 className="text-3xl font-bold tracking-tight sm:text-4xl">{page.title}</h1>
        <p className="max-w-3xl text-lg text-muted-foreground">{page.description}</p>
      </header>

      <section aria-labelledby="guides-title" className="grid gap-4">
        <h2 id="guides-title" className="text-2xl font-semibold tracking-tight">
          Guides
        </h2>
        <ul className="grid gap-4 md:grid-cols-3">
          {(page.guides ?? []).map((g) => (
            <li key={g.key}>
              <Card className="h-full">
                <CardHeader>
                  <BookOpen aria-hidden="true" className="size-6 text-primary" />
                  <CardTitle className="text-lg">
                    <Link to={g.path} className="underline-offset-4 hover:underline">
                      {g.title}
                    </Link>
                  </CardTitle>
                </CardHeader>
                <CardContent className="text-muted-foreground">{g.summary}</CardContent>
              </Card>
            </li>
          ))}
        </ul>
      </section>

      <section aria-labelledby="downloads-title" className="grid gap-4">
        <h2 id="downloads-title" className="text-2xl font-semibold tracking-tight">
          Downloads
        </h2>
        <ul className="grid gap-3">
          {(page.downloads ?? []).map((d) => (
            <li key={d.key} className="flex flex-col gap-3 rounded-lg border border-border p-4 sm:flex-row sm:items-center sm:justify-between">
              <div className="grid gap-1">
                <h3 className="font-semibold">{d.title}</h3>
                <p className="text-sm text-muted-foreground">{d.summary}</p>
              </div>
              <a
                href={d.path}
                download={d.fileName}
                className="inline-flex shrink-0 items-center gap-2 self-start rounded-md border border-primary px-3 py-2 text-sm font-medium text-primary hover:bg-accent sm:self-center"
              >
                <Download aria-hidden="true" className="size-4" />
                <span>
                  Download <span className="sr-only">{d.title}</span> ({d.size})
                </span>
              </a>
            </li>
          ))}
        </ul>
      </section>

      <aside aria-label="Office hours" className="flex gap-4 rounded-2xl border border-border bg-accent/40 p-6">
        <Mail aria-hidden="true" className="mt-1 size-6 shrink-0 text-primary" />
        <Article html={page.html} />
      </aside>
    </div>
  )
}
